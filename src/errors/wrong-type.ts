import { CommandError, TransactionError } from './command-errors';
import { RedisRecordError, WrongTypeError } from './errors';

/** Redis's own refusal of a command on a key of another type, or a transaction with such a refusal. */
export function isWrongType(error: unknown): boolean {
  if (error instanceof TransactionError) return error.refusals.some(isWrongType);
  return error instanceof CommandError && error.code === 'WRONGTYPE';
}

// Redis 7 appends where a script or function raised an error (" script: <sha or function>, on @user_function:<line>.")
const WHERE = '(?: script: \\S+, on @user_(?:script|function):\\d+\\.)?$';
// key-types.lua's refusal, the key in hex (an error reply cannot carry a NUL, CR or LF byte of an index value)
const TYPE_REFUSAL = new RegExp(`^RRTYPE (\\S+) (\\S+) ([0-9a-f]*)${WHERE}`);
// sequence-ids.lua's refusal of a draw past 2^53 - 1, the sequence's key in hex
const SEQUENCE_REFUSAL = new RegExp(`^RRSEQ ([0-9a-f]*)${WHERE}`);
// sequence-ids.lua's refusal of a draw from a sequence holding no integer, the sequence's key in hex
const NO_INTEGER_REFUSAL = new RegExp(`^RRNOINT ([0-9a-f]*)${WHERE}`);

const fromHex = (hex: string) => Buffer.from(hex, 'hex').toString('utf8');

/** The error of a draw from an id sequence holding no integer (a string written by hand): nothing was written. */
export function sequenceWithoutInteger(sequence: string): RedisRecordError {
  return new RedisRecordError(`the id sequence ${sequence} holds no integer, so no id can be drawn from it; nothing was written`);
}

/**
 * Redis's refusal of INCR on an id sequence holding no integer as sequenceWithoutInteger's error; any other error
 * as it is (a draw the client makes itself, outside a script).
 */
export function typedDrawError(error: unknown, sequence: string): unknown {
  if (error instanceof CommandError && !(error instanceof TransactionError) && error.message.startsWith('ERR value is not an integer')) {
    return sequenceWithoutInteger(sequence);
  }
  return error;
}

/**
 * The error a script's refusal stands for: a WrongTypeError (src/store/lua/key-types.lua), or the
 * RedisRecordError of an id sequence past 2^53 - 1 or holding no integer (src/store/lua/sequence-ids.lua); any
 * other error as it is.
 */
export function typedScriptError(error: unknown): unknown {
  if (!(error instanceof CommandError)) return error;
  const type = TYPE_REFUSAL.exec(error.message);
  if (type) return new WrongTypeError(fromHex(type[3]), type[1], type[2]);
  const sequence = SEQUENCE_REFUSAL.exec(error.message);
  if (sequence)
    return new RedisRecordError(
      `the id sequence ${fromHex(sequence[1])} is past 2^53 - 1: ids would no longer be exact; nothing was written`,
    );
  const noInteger = NO_INTEGER_REFUSAL.exec(error.message);
  if (noInteger) return sequenceWithoutInteger(fromHex(noInteger[1]));
  return error;
}

import { ErrorReply, MultiErrorReply } from 'redis';
import { WrongTypeError } from './errors';

/** Redis's own refusal of a command on a key of another type, or a transaction with such a refusal. */
export function isWrongType(error: unknown): boolean {
  if (error instanceof MultiErrorReply) return [...error.errors()].some(isWrongType);
  return error instanceof ErrorReply && error.message.startsWith('WRONGTYPE');
}

// key-types.lua's refusal, the key in hex (an error reply cannot carry a NUL, CR or LF byte of an index value);
// Redis 7 appends where a script raised it (" script: <sha>, on @user_script:<line>.")
const REFUSAL = /^RRTYPE (\S+) (\S+) ([0-9a-f]*)(?: script: [0-9a-f]+, on @user_script:\d+\.)?$/;

/**
 * The WrongTypeError a script's refusal (src/scripts/lua/key-types.lua) stands for; any other error as it is.
 */
export function typedScriptError(error: unknown): unknown {
  if (!(error instanceof ErrorReply) || !error.message.startsWith('RRTYPE ')) return error;
  const match = REFUSAL.exec(error.message);
  return match ? new WrongTypeError(Buffer.from(match[3], 'hex').toString('utf8'), match[1], match[2]) : error;
}

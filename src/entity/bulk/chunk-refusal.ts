import { TransactionError } from '../../errors/command-errors';
import { ConnectionError, RedisRecordError } from '../../errors/errors';

/**
 * The error every item of a bulk chunk (new objects, changes or removals) fails with when Redis refused the
 * chunk's write before writing anything of it, or undefined when `error` must reject the whole call instead.
 *
 * A refusal is an error reply to the chunk's one script call, or to the draw or the type check sent before a
 * plain chunk's transaction (a key of another type, a sequence holding no integer or past 2^53 - 1, a server
 * refusing writes for the moment), typed where the client gives it a type (WrongTypeError, RedisRecordError).
 * Those scripts raise errors only before their first write, and a refused check or draw keeps its transaction
 * from being sent, so the refusal is the chunk's own: the other chunks, and the updates already written, go on.
 * What rejects the call: a transaction's TransactionError (EXEC ran each command, and some may have written), and
 * a ConnectionError (no writable server, or a connection lost part way, after which whether Redis ran the chunk
 * is not known).
 */
export function chunkRefusal(error: unknown): Error | undefined {
  if (error instanceof ConnectionError || error instanceof TransactionError) return undefined;
  if (error instanceof RedisRecordError) return error;
  return undefined;
}

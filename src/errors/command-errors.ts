import { ConnectionError, RedisRecordError } from './errors';

/**
 * Redis answered a command with an error reply that no more precise error stands for: `code` is the reply's first
 * word (ERR, WRONGTYPE, NOSCRIPT, READONLY, EXECABORT...), `cause` the client's own error.
 */
export class CommandError extends RedisRecordError {
  constructor(
    /** The first word of Redis's error reply: ERR, WRONGTYPE, READONLY... */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The connection dropped after the command was sent and before its reply came: it may or may not have been
 * applied. Read back what the write was to do before trying it again (a create retried blindly may store a second
 * object).
 */
export class OutcomeUnknownError extends ConnectionError {}

/** The first word of an error reply ("ERR", "WRONGTYPE", "NOSCRIPT"...). */
export function errorCode(message: string): string {
  const word = /^[A-Z][A-Z0-9_-]*/.exec(message);
  return word ? word[0] : 'ERR';
}

/**
 * A transaction (MULTI/EXEC) in which Redis refused some commands: EXEC ran the others, which stand. `replies` holds
 * each command's reply in order, a refused one's CommandError in its place; `code` is the first refusal's.
 */
export class TransactionError extends CommandError {
  constructor(
    /** Each command's reply, in order: a refused command's CommandError in its place. */
    readonly replies: readonly unknown[],
    /** The refusals, in order. */
    readonly refusals: readonly CommandError[],
  ) {
    super(refusals[0].code, `Redis refused ${refusals.length} of the transaction's ${replies.length} commands: ${refusals[0].message}`, {
      cause: refusals[0],
    });
  }
}

/** The replies of a transaction; a TransactionError when Redis refused one of its commands. */
export function allApplied(replies: readonly unknown[]): unknown[] {
  const refusals = replies.filter((reply): reply is CommandError => reply instanceof CommandError);
  if (refusals.length > 0) throw new TransactionError(replies, refusals);
  return replies as unknown[];
}

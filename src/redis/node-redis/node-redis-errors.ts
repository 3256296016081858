import { CommandError, errorCode, OutcomeUnknownError } from '../../errors/command-errors';
import { ConnectionError } from '../../errors/errors';
import { classNames } from '../../util/class-names';

/** Errors node-redis gives a command it never wrote to a socket. */
const NOT_SENT = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'AbortError',
  'RootNodesUnavailableError',
  'ConnectionTimeoutError',
  'MaxCommandRedirectionsError',
]);

/**
 * Errors of a connection that was never made: commands written on an earlier connection were failed when it
 * dropped, so a command that gets one of these (the reconnect strategy gave up) was still waiting to be written.
 */
const CONNECT_FAILED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether node-redis rejected with a Redis error reply (ErrorReply and its subclasses). */
export function isNodeRedisErrorReply(error: unknown): boolean {
  return classNames(error).includes('ErrorReply');
}

/**
 * A node-redis rejection as redis-record's error; errors of redis-record's own pass through. `ready`: whether the
 * connection was up when the command failed (a command that timed out while it was down was never written).
 */
export function fromNodeRedisError(error: unknown, ready = true): Error {
  if (error instanceof CommandError || error instanceof ConnectionError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const names = classNames(error);
  if (names.includes('ErrorReply')) return new CommandError(errorCode(message), message, { cause: error });
  const code = (error as { code?: string }).code;
  const timedOutOffline = !ready && names.includes('TimeoutError');
  if (
    timedOutOffline ||
    names.some((name) => NOT_SENT.has(name)) ||
    message === 'The queue is full' ||
    (code && CONNECT_FAILED.has(code))
  ) {
    return new ConnectionError(`the command was not sent: ${message}`, { cause: error });
  }
  // The socket's own error (SocketClosedUnexpectedlyError, ECONNRESET, a socket timeout) reaches the commands written
  // to it and waiting for a reply; a command not yet written stays queued for the next connection.
  return new OutcomeUnknownError(`the connection was lost before the reply, which may or may not have been applied: ${message}`, {
    cause: error,
  });
}

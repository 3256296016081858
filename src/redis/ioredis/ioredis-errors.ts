import { CommandError, errorCode, OutcomeUnknownError } from '../../errors/command-errors';
import { ConnectionError } from '../../errors/errors';
import { classNames } from '../../util/class-names';

/** ioredis's and iovalkey's words for a command that was never written to a connection. */
const NOT_SENT = [
  'Connection is closed.', // the offline queue flushed: reconnecting gave up, or disconnect()
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Command aborted due to connection close', // a transaction's part left in the offline queue
  'Cluster is ended.',
  'Failed to refresh slots cache.',
  'None of startup nodes is available',
  'Too many Cluster redirections.',
];

/** Whether the client rejected with a Redis error reply. */
export function isIoredisReplyError(error: unknown): boolean {
  return classNames(error).includes('ReplyError');
}

/** An ioredis or iovalkey rejection as redis-record's error; errors of redis-record's own pass through. */
export function fromIoredisError(error: unknown): Error {
  if (error instanceof CommandError || error instanceof ConnectionError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isIoredisReplyError(error)) return new CommandError(errorCode(message), message, { cause: error });
  const names = classNames(error);
  if (
    names.includes('MaxRetriesPerRequestError') ||
    names.includes('ClusterAllFailedError') ||
    NOT_SENT.some((text) => message.startsWith(text))
  ) {
    return new ConnectionError(`the command was not sent: ${message}`, { cause: error });
  }
  // anything else (a command timeout, a socket error) may have reached the server
  return new OutcomeUnknownError(`no reply came, and the command may or may not have been applied: ${message}`, { cause: error });
}

/** The replies of a pipeline or transaction: a refused command's CommandError in its place; a lost connection throws. */
export function repliesOf(
  results: ReadonlyArray<readonly [Error | null, unknown]>,
  shape: (reply: unknown, i: number) => unknown,
): unknown[] {
  return results.map(([error, reply], i) => {
    if (!error) return shape(reply, i);
    const mapped = fromIoredisError(error);
    if (!(mapped instanceof CommandError)) throw mapped;
    return mapped;
  });
}

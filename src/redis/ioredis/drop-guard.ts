import { OutcomeUnknownError } from '../../errors/command-errors';
import { addressOf, IoRedis } from './ioredis-client';

/**
 * Keeps ioredis (and iovalkey) from writing a command twice. When a connection that was ready closes, ioredis keeps
 * the commands written to it and writes them again after reconnecting (its autoResendUnfulfilledCommands, on by
 * default), and a Cluster sends those of a lost node again to another one: a create whose reply was lost would be
 * applied twice. So a listener put first on each connection's socket 'close' fails the written commands with
 * OutcomeUnknownError before ioredis's own handler runs (ioredis emits its 'close' a tick later, too late), and
 * the resend option is turned off, restored by the returned stop(). Commands not written yet stay queued and are
 * sent once connected. The application's own commands written on that connection get the same error.
 */
export function guardDrops(redis: IoRedis, active: () => boolean): () => void {
  const previous = redis.options.autoResendUnfulfilledCommands;
  // read by ioredis at each 'ready': takes effect on a live client
  redis.options.autoResendUnfulfilledCommands = false;
  const hooked = new WeakSet<object>();
  const hook = () => {
    const stream = redis.stream;
    if (!stream || hooked.has(stream)) return;
    hooked.add(stream);
    let socketError: Error | undefined;
    stream.prependListener('error', (error: Error) => (socketError = error));
    stream.prependOnceListener('close', () => {
      // not ready: only the connection's handshake was written
      if (!active() || redis.status !== 'ready') return;
      // the cause: the socket's error (ECONNRESET...), or, for a connection the server closed, the error the client
      // itself gives the commands of a closed connection
      const cause = socketError ?? new Error('Connection is closed.');
      redis.flushQueue(
        new OutcomeUnknownError(
          `the connection to ${addressOf(redis)} closed before the reply: the command may or may not have been applied (${cause.message})`,
          { cause },
        ),
        { offlineQueue: false, commandQueue: true },
      );
    });
  };
  hook();
  redis.on('connect', hook);
  return () => {
    redis.off('connect', hook);
    redis.options.autoResendUnfulfilledCommands = previous;
  };
}

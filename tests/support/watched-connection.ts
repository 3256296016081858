import { createClient } from 'redis';
import { connect } from '../../src';

type Client = ReturnType<typeof createClient>;
type Method = (...args: unknown[]) => unknown;

/**
 * redis-record's connection under `redis.prefix` for the test file that calls this, through a Proxy that
 * replaces the client's method `name` with what `wrap` makes of it (bound to the client), so that a test can
 * watch what redis-record sends that way. Connected before the file's tests, closed after them.
 */
export function useWatchedConnection(
  redis: { readonly prefix: string },
  name: keyof Client & string,
  wrap: (method: Method) => Method,
): void {
  const client = createClient({ url: process.env.REDIS_URL });
  beforeAll(async () => {
    const watched = new Proxy(client, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        return property === name && typeof value === 'function' ? wrap((value as Method).bind(object)) : value;
      },
    });
    await client.connect();
    await connect({ client: watched, prefix: redis.prefix });
  });
  afterAll(() => client.close());
}

/** One transaction redis-record sent: its commands (name upper-cased, then the arguments after it), in order. */
export interface WatchedTransaction {
  readonly commands: Array<{ command: string; args: string[] }>;
}

/**
 * redis-record's connection (useWatchedConnection) watching every transaction it sends: the transport writes
 * MULTI, the commands and EXEC as one node-redis chain (one chainId). `started` sees each one as MULTI is sent;
 * `exec` wraps the promise of its EXEC (to count the transactions awaiting Redis, say).
 */
export function useWatchedTransactions(
  redis: { readonly prefix: string },
  started: (transaction: WatchedTransaction) => void,
  exec: (transaction: WatchedTransaction, reply: Promise<unknown>) => Promise<unknown> = (_, reply) => reply,
): void {
  const open = new Map<unknown, WatchedTransaction>();
  useWatchedConnection(redis, 'sendCommand', (sendCommand) => (...args) => {
    const [command, options] = args as [unknown[], { chainId?: unknown } | undefined];
    const chain = options?.chainId;
    if (chain === undefined) return sendCommand(...args);
    const name = String(command[0]).toUpperCase();
    if (name === 'MULTI') {
      const transaction: WatchedTransaction = { commands: [] };
      open.set(chain, transaction);
      started(transaction);
      return sendCommand(...args);
    }
    const transaction = open.get(chain)!;
    if (name !== 'EXEC') {
      transaction.commands.push({ command: name, args: command.slice(1).map(String) });
      return sendCommand(...args);
    }
    open.delete(chain);
    return exec(transaction, sendCommand(...args) as Promise<unknown>);
  });
}

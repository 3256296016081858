import { createClient } from 'redis';
import { connect } from '../../../src';

/**
 * The commands redis-record sends (every one through sendCommand, the transport's way into node-redis), recorded
 * under the name of the client method they stand for; a transaction (MULTI ... EXEC, one chain) as one `multi`.
 */
const NAMES = new Map([
  ['FCALL', 'fCall'],
  ['FCALL_RO', 'fCall'],
  ['ZCARD', 'zCard'],
  ['ZSCORE', 'zScore'],
  ['HGETALL', 'hGetAll'],
  ['HSET', 'hSet'],
  ['DEL', 'del'],
  ['EXISTS', 'exists'],
  ['TYPE', 'type'],
  ['INCRBY', 'incrBy'],
]);

export interface CountingClient<T> {
  /** A node-redis client whose commands are recorded; pass it to connect({ client }). */
  readonly client: T;
  /** The commands sent, in order, since the last reset (plus whatever else shares the list). */
  readonly calls: string[];
  reset(): void;
}

/**
 * Wraps a node-redis client in a Proxy that records every command sent through it, so a test can assert how many
 * round trips an operation cost, or that an invalid call sent nothing. `calls` may be a list the test writes to
 * as well (hooks, for instance), to see commands and other events in one order.
 */
export function countingClient<T extends object>(target: T, calls: string[] = []): CountingClient<T> {
  const client = new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'sendCommand' && Array.isArray(args[0])) {
          const name = String(args[0][0]).toUpperCase();
          const chained = (args[1] as { chainId?: unknown } | undefined)?.chainId !== undefined;
          if (!chained) calls.push(NAMES.get(name) ?? 'sendCommand');
          else if (name === 'MULTI') calls.push('multi');
        }
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
  return { client, calls, reset: () => void calls.splice(0) };
}

/**
 * A counting client (see countingClient) made redis-record's connection under `redis.prefix` for the test file
 * or describe block that calls this: connected before its tests (a later beforeAll may warm up on it), closed
 * after them.
 */
export function useCountingConnection(redis: { readonly prefix: string }, calls?: string[]) {
  const counting = countingClient(createClient({ url: process.env.REDIS_URL }), calls);
  beforeAll(async () => {
    await counting.client.connect();
    await connect({ client: counting.client, prefix: redis.prefix });
  });
  afterAll(() => counting.client.close());
  return counting;
}

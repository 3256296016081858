import { createClient } from 'redis';
import { connect } from '../../../src';

/** The commands redis-record can send; each call of one of them is one round trip to Redis. */
const COMMANDS = new Set([
  'evalSha',
  'eval',
  'zCard',
  'zScore',
  'sendCommand',
  'multi',
  'hGetAll',
  'hSet',
  'del',
  'exists',
  'type',
  'incrBy',
]);

/** Raw commands recorded as the method they stand for: scripts go out as sendCommand(['EVALSHA', ...]). */
const RAW = new Map([
  ['EVALSHA', 'evalSha'],
  ['EVAL', 'eval'],
]);

export interface CountingClient<T> {
  /** A node-redis client whose command calls are recorded; pass it to connect({ client }). */
  readonly client: T;
  /** The command methods called, in order, since the last reset (plus whatever else shares the list). */
  readonly calls: string[];
  reset(): void;
}

/**
 * Wraps a node-redis client in a Proxy that records every command method called through it, so a test can
 * assert how many round trips an operation cost, or that an invalid call sent nothing. `calls` may be a list
 * the test writes to as well (hooks, for instance), to see commands and other events in one order.
 */
export function countingClient<T extends object>(target: T, calls: string[] = []): CountingClient<T> {
  const client = new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof property === 'string' && COMMANDS.has(property)) {
          const raw = property === 'sendCommand' && Array.isArray(args[0]) ? RAW.get(String(args[0][0]).toUpperCase()) : undefined;
          calls.push(raw ?? property);
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

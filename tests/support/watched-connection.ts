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

/** A client, or a cluster client, as made and not yet connected. */
interface Connectable {
  connect(): Promise<unknown>;
  destroy(): void;
}

/**
 * Connects a client made for connect(): once, now, and without leaving anything behind. The first connection
 * must succeed (a redis-record error made by `failure` otherwise, the client destroyed so that no reconnect
 * goes on in the background); `established` is called once it has, after which the client's reconnect
 * strategy takes over. Used alike for a url and for a cluster.
 */
export async function firstConnect<C extends Connectable>(client: C, failure: (error: unknown) => Error, established: () => void): Promise<C> {
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw failure(error);
  }
  established();
  return client;
}

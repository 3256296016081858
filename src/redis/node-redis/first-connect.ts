/** A client, or a cluster client, as made and not yet connected. */
interface Connectable {
  connect(): Promise<unknown>;
  destroy(): void;
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  off?(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * Connects a client made for connect(): once, now, and without leaving anything behind. The first connection
 * must succeed (a redis-record error made by `failure` otherwise, the client destroyed so that no reconnect
 * goes on in the background); `established` is called once it has, after which the client's reconnect
 * strategy takes over. Used alike for a url and for a cluster, whose reconnect strategy gives up on a failed
 * first connection, and for a standalone client passed in (`untilFirstError`), whose strategy is the caller's:
 * node-redis's default retries a refused first connection (nobody listening, a wrong password) for ever, and
 * its connect() would never settle, so the first 'error' the client emits fails it instead.
 */
export async function firstConnect<C extends Connectable>(
  client: C,
  failure: (error: unknown) => Error,
  established: () => void,
  untilFirstError = false,
): Promise<C> {
  try {
    await (untilFirstError ? connectOrFirstError(client) : client.connect());
  } catch (error) {
    client.destroy();
    throw failure(error);
  }
  established();
  return client;
}

/**
 * client.connect(), rejected by the first 'error' the client emits before it settles. The listener stays until
 * connect() settles (after destroy(), a connect() waiting to retry rejects; that second settlement is a no-op).
 */
function connectOrFirstError(client: Connectable): Promise<unknown> {
  const { on, off } = client;
  if (typeof on !== 'function' || typeof off !== 'function') return client.connect();
  return new Promise((resolve, reject) => {
    const onError = (error: unknown) => reject(error);
    on.call(client, 'error', onError);
    client
      .connect()
      .then(resolve, reject)
      .finally(() => off.call(client, 'error', onError));
  });
}

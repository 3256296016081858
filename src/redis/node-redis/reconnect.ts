/**
 * The reconnect strategy of a client redis-record opens: before the first connection succeeds, none (connect()
 * fails with the cause); after it, retries with backoff, at most 2 s apart.
 *
 * The cause is returned as an Error of this module's realm. node-redis only gives up when the strategy returns
 * an `instanceof Error`, and the socket errors Node raises (ECONNREFUSED, a refused socket option) come from
 * Node's own realm: where the library runs in another one (a test runner's VM context, as Jest's), such a
 * cause fails that check and node-redis would retry forever, so connect() would never settle.
 */
export function reconnectStrategy(established: () => boolean): (retries: number, cause: unknown) => number | Error {
  return (retries, cause) => (established() ? Math.min(50 * 2 ** retries, 2000) : ownError(cause));
}

function ownError(cause: unknown): Error {
  if (cause instanceof Error) return cause;
  const message = (cause as { message?: unknown } | undefined)?.message;
  return new Error(typeof message === 'string' ? message : String(cause), { cause });
}

/**
 * What `run` returns, or a rejection with what it throws: an operation that returns a promise reports bad
 * input (a class that is no model, a method called without its class) as a rejection, never by throwing at
 * the call. Not an async wrapper: the promise `run` returns is passed on as it is, without a tick more.
 */
export function asRejection<R>(run: () => Promise<R>): Promise<R> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

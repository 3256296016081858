import { ConnectionError } from '../errors/errors';

/**
 * The ConnectionError of a failed first connection, `connect: <what>: <the client's message>`, with `redact`
 * taking the secrets of the url or cluster options out of it. A refused password says so in plain words: Redis
 * answers WRONGPASS for a wrong one, and NOAUTH when it needs one and none was given.
 */
export function connectFailure(what: string, error: unknown, redact: (message: string) => string): ConnectionError {
  const message = String((error as Error)?.message ?? error);
  const said = message.replace(/^(?:not authenticated: |the command was not sent: )/, '');
  let text: string;
  if (said.startsWith('WRONGPASS')) text = `connect: Redis refused the password (${said})`;
  else if (said.startsWith('NOAUTH')) text = `connect: this Redis needs a password: redis://:password@host:port (${said})`;
  else text = `connect: ${what}: ${message}`;
  return new ConnectionError(redact(text), { cause: error });
}

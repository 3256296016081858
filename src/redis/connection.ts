import { ConnectionError } from '../errors/errors';
import { RedisCommands } from './redis-commands';
import { refuseUnfitServer } from './server-requirements';
import type { Transport } from './transport';

/** The Redis client and key prefix every model uses: what connect() opens. */
export class Connection {
  /**
   * The commands redis-record sends, over the transport.
   * @internal
   */
  readonly client: RedisCommands;

  constructor(
    /** The client's transport (node-redis, ioredis or iovalkey): every command goes through it. */
    readonly transport: Transport,
    /** Namespace of every key (`connect({ prefix })`, default `rr`). */
    readonly prefix: string,
  ) {
    this.client = new RedisCommands(transport);
  }

  /** Whether the server is fit, as last asked (fitServer); undefined until asked, or after a refusal. */
  private fit: Promise<void> | undefined;
  /** When the server is asked, as a refusal's message begins: at connect(), until the client first reconnects. */
  private asking = 'connect';

  /**
   * Resolves once the server is known to be one redis-record can keep its guarantees on
   * (server-requirements.ts), and rejects with the ConnectionError that says why not. Asked at connect(), and
   * again after each reconnection of the client (reconnected), since the server behind the address may have
   * changed; every registration of a model waits for it, so nothing is written on a server found unfit. A
   * refusal is asked again the next time.
   */
  fitServer(): Promise<void> {
    return (this.fit ??= this.askFit(true));
  }

  /**
   * The client has reconnected: the server is asked again. Only a definite refusal counts then; a probe that
   * could not run (a cluster node down in the middle of a failover) is not held against the server, as it was
   * fit before.
   */
  reconnected(): void {
    this.asking = 'after the client reconnected';
    this.fit = this.askFit(false);
    // the refusal is for the operations that wait for it; no one may be waiting yet
    this.fit.catch(() => undefined);
  }

  private askFit(strict: boolean): Promise<void> {
    // a refusal asked again later (strict) still says it came after a reconnection, once there was one
    const asked: Promise<void> = refuseUnfitServer(this.transport, this.asking).catch((error: unknown) => {
      if (!strict && !(error instanceof ConnectionError)) return;
      if (this.fit === asked) this.fit = undefined;
      throw error;
    });
    return asked;
  }

  /**
   * Closes the client if redis-record opened it; a client passed in by the caller stays theirs (no longer
   * listened to).
   */
  release(): Promise<void> {
    return this.transport.close();
  }
}

let current: Connection | undefined;

/** Makes `connection` the one every model uses (connect()), or none; returns the one it replaces. */
export function setCurrentConnection(connection: Connection | undefined): Connection | undefined {
  const previous = current;
  current = connection;
  return previous;
}

/** The current connection; throws ConnectionError when there is none. */
export function activeConnection(): Connection {
  if (!current) throw new ConnectionError('not connected: call connect() first');
  return current;
}

/** The current connection, or undefined (for work that is skipped when there is none). */
export function currentConnection(): Connection | undefined {
  return current;
}

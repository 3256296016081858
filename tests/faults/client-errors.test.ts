import 'reflect-metadata';
import { createClient } from 'redis';
import { Attr, BaseEntity, connect, ConnectionError, disconnect, Model, OutcomeUnknownError, RedisRecordError } from '../../src';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { uniquePrefix } from '../support/test-redis';

/**
 * Whatever the client, a lost connection reaches the application as redis-record's own error, with the client's
 * error as `cause`: a write whose connection is cut (CLIENT KILL) after Redis read it and before its reply is an
 * OutcomeUnknownError; an operation on a client the application closed is a ConnectionError. Each client in turn,
 * on a private Redis (CLIENT PAUSE holds the write back server-side, so that it is cut in flight every time).
 */

@Model()
class CutNote extends BaseEntity {
  @Attr() text!: string;
}

interface Client {
  readonly handle: unknown;
  close(): Promise<unknown>;
}

const NAME = 'rr-client-errors';

const clients: Record<string, (url: string) => Promise<Client>> = {
  'node-redis': async (url) => {
    const client = createClient({ url, name: NAME });
    client.on('error', () => undefined);
    await client.connect();
    return { handle: client, close: () => client.close() };
  },
  ioredis: async (url) => {
    const { Redis } = await import('ioredis');
    const client = new Redis(url, { connectionName: NAME });
    client.on('error', () => undefined);
    return { handle: client, close: async () => client.disconnect() };
  },
  iovalkey: async (url) => {
    const { Redis } = await import('iovalkey');
    const client = new Redis(url, { connectionName: NAME });
    client.on('error', () => undefined);
    return { handle: client, close: async () => client.disconnect() };
  },
};

let server: PrivateRedis;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  server = await startPrivateRedis();
  admin = createClient({ url: server.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.close();
  await server?.stop();
});

/** The id of the client named NAME once Redis holds a command of it back (`b`: blocked by the pause). */
async function heldClientId(): Promise<string> {
  for (;;) {
    const line = String(await admin.sendCommand(['CLIENT', 'LIST']))
      .split('\n')
      .find((entry) => entry.includes(` name=${NAME} `) && /\sflags=\w*b/.test(entry));
    if (line) return /(?:^|\s)id=(\d+)/.exec(line)![1];
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The chain of causes of `error`, outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = (error as Error).cause; at !== undefined; at = (at as Error).cause) chain.push(at);
  return chain;
}

describe.each(Object.keys(clients))('a lost connection, with %s', (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await clients[kind](server.url);
    await connect({ client: client.handle, prefix: uniquePrefix('cut') });
    await CutNote.create({ text: 'first' });
  });
  afterAll(async () => {
    await disconnect();
    await client.close().catch(() => undefined);
  });

  it('is an OutcomeUnknownError for a write cut in flight, the client error its cause, and the client goes on', async () => {
    await admin.sendCommand(['CLIENT', 'PAUSE', '10000', 'WRITE']);
    let failure: unknown;
    try {
      const create = CutNote.create({ text: 'cut' }).catch((error: unknown) => error);
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', await heldClientId()]);
      failure = await create;
    } finally {
      await admin.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    expect(failure).toBeInstanceOf(OutcomeUnknownError);
    expect(failure).toBeInstanceOf(RedisRecordError);
    expect((failure as Error).message).toMatch(/may or may not have been applied/);
    expect(causes(failure)).not.toEqual([]);
    // the application reconnects and carries on: the cut write was never applied (the pause held it back)
    expect(await CutNote.count()).toBe(1);
  });

  it('is a ConnectionError for an operation on a client the application closed, the client error its cause', async () => {
    await client.close();
    const failure = await CutNote.count().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect(failure).not.toBeInstanceOf(OutcomeUnknownError);
    expect(causes(failure)).not.toEqual([]);
  });
});

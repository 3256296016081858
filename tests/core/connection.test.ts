import { runInNewContext } from 'vm';
import { createClient } from 'redis';
import {
  Attr,
  BaseEntity,
  connect,
  ConnectionError,
  Counter,
  disconnect,
  Index,
  ManyToMany,
  Model,
  RedisRecordError,
  Unique,
} from '../../src';
import { currentConnection } from '../../src/redis/connection';
import { reconnectStrategy } from '../../src/redis/node-redis/reconnect';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { socketsOpenedBy } from '../support/opened-sockets';
import { useOwnPrefixes } from '../support/test-redis';

/**
 * redis-record uses one connection, opened by connect() from a url or handed an existing node-redis client.
 * Without one, every operation that needs Redis throws ConnectionError. (This file manages connections
 * itself and does not use useTestRedis.)
 */

@Model()
class ConnectedNote extends BaseEntity {
  @Attr() body!: string;
}

@Model({ idStrategy: 'uuid' })
class ConnectedTicket extends BaseEntity {
  @Attr() subject!: string;
}

@Model()
class ConnectedLabel extends BaseEntity {
  @Attr() name?: string;
}

@Model()
class ConnectedItem extends BaseEntity {
  @Attr() @Index() color?: string;
  @Attr() @Unique() code?: string;
  @Counter() hits = 0;
  @ManyToMany(() => ConnectedLabel) labels!: ManyToMany<ConnectedLabel>;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const { raw, freshPrefix } = useOwnPrefixes('conn');

describe('before connect()', () => {
  it('every operation that needs Redis throws ConnectionError', async () => {
    await expect(ConnectedNote.create({ body: 'x' })).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.find('1')).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.findOrFail('1')).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.findMany(['1'])).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.exists('1')).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.count()).rejects.toThrow(ConnectionError);
    await expect(ConnectedNote.build({ body: 'x' }).save()).rejects.toThrow(ConnectionError);
  });

  it('the error says to call connect()', async () => {
    await expect(ConnectedNote.count()).rejects.toThrow(/connect\(\)/);
  });

  it('build needs no connection', () => {
    expect(ConnectedNote.build({ body: 'offline' }).body).toBe('offline');
  });

  it('a failed create leaves the instance unsaved', async () => {
    const note = ConnectedNote.build({ body: 'x' });
    await expect(note.save()).rejects.toThrow(ConnectionError);
    expect(note.isPersisted()).toBe(false);
  });
});

describe('connect({ url, prefix })', () => {
  it('writes under the prefix; after disconnect() operations throw ConnectionError again', async () => {
    const prefix = freshPrefix();
    await connect({ url: process.env.REDIS_URL, prefix });
    const note = await ConnectedNote.create({ body: 'hello' });
    expect(await raw.hGet(`${prefix}:{ConnectedNote}:obj:${note.id}`, 'body')).toBe('hello');

    await disconnect();
    await expect(ConnectedNote.find(note.id)).rejects.toThrow(ConnectionError);
    note.body = 'after disconnect';
    await expect(note.save()).rejects.toThrow(ConnectionError);
    await expect(note.remove()).rejects.toThrow(ConnectionError);
  });

  it('after disconnect(), every operation rejects with ConnectionError: none throws at the call, none fails otherwise', async () => {
    await connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
    const item = await ConnectedItem.create({ color: 'red', code: 'a' });
    const label = await ConnectedLabel.create({ name: 'l' });
    await disconnect();
    const labels = item.labels;
    const calls: Record<string, () => unknown> = {
      create: () => ConnectedItem.create({ color: 'x' }),
      save: () => {
        item.color = 'blue';
        return item.save();
      },
      reload: () => item.reload(),
      remove: () => item.remove(),
      increment: () => item.increment('hits'),
      persist: () => item.persist(),
      ttl: () => item.ttl(),
      find: () => ConnectedItem.find('1'),
      findOrFail: () => ConnectedItem.findOrFail('1'),
      findMany: () => ConnectedItem.findMany(['1']),
      exists: () => ConnectedItem.exists('1'),
      count: () => ConnectedItem.count(),
      countWhere: () => ConnectedItem.count({ color: 'red' }),
      findBy: () => ConnectedItem.findBy({ color: 'red' }),
      findOneBy: () => ConnectedItem.findOneBy({ color: 'red' }),
      findIds: () => ConnectedItem.findIds({ color: 'red' }),
      iterate: () => ConnectedItem.iterate()[Symbol.asyncIterator]().next(),
      sweep: () => ConnectedItem.sweep(),
      withLock: () => ConnectedItem.withLock(item.id, async () => 1),
      drop: () => ConnectedItem.scope('tenant1').drop(),
      check: () => ConnectedItem.check(),
      repair: () => ConnectedItem.repair(),
      reindex: () => ConnectedItem.reindex(),
      schemaStatus: () => ConnectedItem.schemaStatus(),
      saveMany: () => ConnectedItem.saveMany([{ color: 'x' }]),
      removeMany: () => ConnectedItem.removeMany(['1']),
      scopeCount: () => ConnectedItem.scope('tenant1').count(),
      scopeCheck: () => ConnectedItem.scope('tenant1').check(),
      labelsAdd: () => labels.add(label),
      labelsIds: () => labels.ids(),
      labelsCount: () => labels.count(),
    };
    const outcomes: Record<string, string> = {};
    for (const [name, call] of Object.entries(calls)) {
      let returned: unknown;
      try {
        returned = call();
      } catch (error) {
        outcomes[name] = `thrown at the call: ${(error as Error).name}`;
        continue;
      }
      outcomes[name] = await Promise.resolve(returned).then(
        () => 'resolved',
        (error: unknown) =>
          error instanceof ConnectionError ? 'ConnectionError' : `rejected: ${(error as Error).name}: ${(error as Error).message}`,
      );
    }
    expect(Object.entries(outcomes).filter(([, outcome]) => outcome !== 'ConnectionError')).toEqual([]);
  });

  it('keeps prefixes apart: another prefix sees none of the objects', async () => {
    await connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
    await ConnectedNote.create({ body: 'in the first prefix' });
    await connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
    expect(await ConnectedNote.count()).toBe(0);
    expect(await ConnectedNote.find('1')).toBeNull();
    await disconnect();
  });

  it('fails with a ConnectionError when nothing listens at the url (Node errors of another realm too, as here under Jest)', async () => {
    await expect(connect({ url: 'redis://127.0.0.1:1', prefix: freshPrefix() })).rejects.toThrow(ConnectionError);
    await expect(connect({ url: 'redis://127.0.0.1:1', prefix: freshPrefix() })).rejects.toThrow(
      /cannot reach Redis: connect ECONNREFUSED/,
    );
  });

  it('gives up on a failed first connection with an Error node-redis recognizes, whatever realm the cause is from', () => {
    let established = false;
    const strategy = reconnectStrategy(() => established);
    const foreign: unknown = runInNewContext('new Error("connect ECONNREFUSED 127.0.0.1:1")');
    expect(foreign instanceof Error).toBe(false);
    const given = strategy(0, foreign);
    expect(given).toBeInstanceOf(Error);
    expect((given as Error).message).toBe('connect ECONNREFUSED 127.0.0.1:1');
    expect((given as Error).cause).toBe(foreign);
    const own = new Error('own');
    expect(strategy(0, own)).toBe(own);
    established = true;
    expect([0, 1, 2, 5, 10].map((retries) => strategy(retries, own))).toEqual([50, 100, 200, 1600, 2000]);
  });

  it('refuses a prefix with braces, and an empty one', async () => {
    await expect(connect({ url: process.env.REDIS_URL, prefix: 'a{b}' })).rejects.toThrow(RedisRecordError);
    await expect(connect({ url: process.env.REDIS_URL, prefix: '' })).rejects.toThrow(RedisRecordError);
  });
});

describe('the socket of a client connect() opens', () => {
  afterEach(() => disconnect());

  it('buffers 1 MiB before node-redis waits for it to drain, so a bulk chunk is written whole', async () => {
    const sockets = await socketsOpenedBy(() => connect({ url: process.env.REDIS_URL, prefix: freshPrefix() }));
    expect(sockets).toHaveLength(1);
    expect(sockets[0].writableHighWaterMark).toBe(1024 * 1024);
    const { ok } = await ConnectedNote.saveMany(Array.from({ length: 600 }, (_, i) => ({ body: `${i}`.padEnd(2000, '.') })));
    expect(ok).toBe(true);
    expect(await ConnectedNote.count()).toBe(600);
  });

  it('takes the size given in the socket options instead', async () => {
    const sockets = await socketsOpenedBy(() =>
      connect({ url: process.env.REDIS_URL, prefix: freshPrefix(), socket: { writableHighWaterMark: 64 * 1024 } }),
    );
    expect(sockets.map((socket) => socket.writableHighWaterMark)).toEqual([64 * 1024]);
  });

  it('a size Node refuses fails connect() with a ConnectionError that says so', async () => {
    await expect(connect({ url: process.env.REDIS_URL, prefix: freshPrefix(), socket: { writableHighWaterMark: -1 } })).rejects.toThrow(
      ConnectionError,
    );
    await expect(connect({ url: process.env.REDIS_URL, prefix: freshPrefix(), socket: { writableHighWaterMark: -1 } })).rejects.toThrow(
      /writableHighWaterMark/,
    );
  });
});

describe('connect({ client })', () => {
  it('uses an existing node-redis client and leaves it open on disconnect()', async () => {
    const client = createClient({ url: process.env.REDIS_URL });
    await client.connect();
    const prefix = freshPrefix();
    await connect({ client, prefix });

    const note = await ConnectedNote.create({ body: 'through my client' });
    expect((await ConnectedNote.findOrFail(note.id)).body).toBe('through my client');
    expect(await raw.exists(`${prefix}:{ConnectedNote}:obj:${note.id}`)).toBe(1);

    await disconnect();
    expect(client.isOpen).toBe(true);
    expect(await client.ping()).toBe('PONG');
    await client.close();
  });

  it('connects a client that is not connected yet', async () => {
    const client = createClient({ url: process.env.REDIS_URL });
    expect(client.isOpen).toBe(false);
    await connect({ client, prefix: freshPrefix() });
    expect(client.isOpen).toBe(true);
    expect(await ConnectedNote.count()).toBe(0);
    await disconnect();
    await client.close();
  });

  describe('a client that cannot connect', () => {
    const PASSWORD = 'conn-Secret-7';
    let locked: PrivateRedis;
    beforeAll(async () => {
      locked = await startPrivateRedis(['--requirepass', PASSWORD]);
    });
    afterAll(() => locked.stop());

    /** How `connect` settles within `ms`: 'resolved', the error's class name, or 'pending'. */
    async function within(connecting: Promise<unknown>, ms: number): Promise<string> {
      let timer: NodeJS.Timeout | undefined;
      const settled = connecting.then(
        () => 'resolved',
        (error: Error) => error.constructor.name,
      );
      const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
      try {
        return await Promise.race([settled, late]);
      } finally {
        clearTimeout(timer);
      }
    }

    /** A client of node-redis's default reconnect strategy, which retries a failed first connection for ever. */
    function unconnectable(url: string) {
      const client = createClient({ url, socket: { connectTimeout: 500 } });
      client.on('error', () => undefined);
      return client;
    }

    it('a refused password fails connect() with a ConnectionError at once; the client is left closed, trying no more', async () => {
      await connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
      const client = unconnectable(`redis://:wrong@127.0.0.1:${locked.port}`);
      const connecting = connect({ client, prefix: freshPrefix() });
      expect(await within(connecting, 3000)).toBe('ConnectionError');
      await expect(connecting).rejects.toThrow(/^connect: Redis refused the password \(WRONGPASS/);
      expect(client.isOpen).toBe(false);
      expect(currentConnection()).toBeUndefined();
      const admin = createClient({ url: `redis://:${PASSWORD}@127.0.0.1:${locked.port}` });
      await admin.connect();
      const tries = async () => Number(/total_connections_received:(\d+)/.exec(await admin.info('stats'))![1]);
      const before = await tries();
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await tries()).toBe(before);
      await admin.close();
      client.destroy(); // still the caller's to dispose of: harmless
    });

    it('nobody listening fails connect() with a ConnectionError at once', async () => {
      const client = unconnectable('redis://127.0.0.1:1');
      const connecting = connect({ client, prefix: freshPrefix() });
      expect(await within(connecting, 3000)).toBe('ConnectionError');
      await expect(connecting).rejects.toThrow(/^connect: cannot reach Redis: connect ECONNREFUSED/);
      expect(client.isOpen).toBe(false);
    });

    it('the connect() and disconnect() calls after it do not wait for it for ever', async () => {
      const failing = connect({ client: unconnectable('redis://127.0.0.1:1'), prefix: freshPrefix() });
      const next = connect({ url: process.env.REDIS_URL, prefix: freshPrefix() });
      expect(await within(failing, 3000)).toBe('ConnectionError');
      expect(await within(next, 3000)).toBe('resolved');
      expect(await ConnectedNote.count()).toBe(0);
      expect(await within(disconnect(), 3000)).toBe('resolved');
    });
  });

  it('refuses both url and client, and something that is not a node-redis client', async () => {
    await expect(connect({ url: process.env.REDIS_URL, client: raw })).rejects.toThrow(RedisRecordError);
    await expect(connect({ client: { get: () => null } })).rejects.toThrow(RedisRecordError);
  });
});

describe("@Model({ idStrategy: 'uuid' })", () => {
  let prefix = '';
  beforeAll(async () => {
    prefix = freshPrefix();
    await connect({ url: process.env.REDIS_URL, prefix });
  });
  afterAll(async () => {
    await disconnect();
  });

  it('gives random v4 uuid ids', async () => {
    const tickets = await Promise.all([1, 2, 3].map((n) => ConnectedTicket.create({ subject: `s${n}` })));
    for (const ticket of tickets) expect(ticket.id).toMatch(UUID_V4);
    expect(new Set(tickets.map((ticket) => ticket.id)).size).toBe(3);
    expect(await ConnectedTicket.count()).toBe(3);
  });

  it('finds, updates and removes by uuid', async () => {
    const ticket = await ConnectedTicket.create({ subject: 'printer' });
    const found = await ConnectedTicket.findOrFail(ticket.id);
    expect(found.subject).toBe('printer');
    found.subject = 'printer on fire';
    await found.save();
    expect((await ConnectedTicket.findMany([ticket.id, '00000000-0000-4000-8000-000000000000'])).map((t) => t?.subject ?? null)).toEqual([
      'printer on fire',
      null,
    ]);
    await found.remove();
    expect(await ConnectedTicket.exists(ticket.id)).toBe(false);
  });

  it('uses no sequence', async () => {
    await ConnectedTicket.create({ subject: 'x' });
    expect(await raw.exists(`${prefix}:{ConnectedTicket}:seq`)).toBe(0);
  });
});

import { createServer, AddressInfo } from 'net';
import { ArgumentError, Attr, BaseEntity, connect, ConnectionError, ConnectOptions, disconnect, Model } from '../../src';
import { currentConnection } from '../../src/redis/connection';
import { describeValue } from '../../src/util/describe-value';
import { socketsOpenedBy, watchSocketsOpened } from '../support/opened-sockets';
import { useOwnPrefixes } from '../support/test-redis';

/**
 * What connect() accepts, and what a refused or concurrent call does to the current connection:
 * - an option is absent only when undefined; anything else of the wrong kind is an ArgumentError, never a
 *   fall back to the default server (127.0.0.1:6379, which no test here may reach);
 * - a call refused for its options opens no socket and leaves the current connection working;
 * - connect() and disconnect() calls run one after the other: the last one wins, and no client is left open.
 * Every connection goes to the private server of the run (REDIS_URL, started by jest's globalSetup).
 */

@Model()
class ArgNote extends BaseEntity {
  @Attr() body!: string;
}

const url = process.env.REDIS_URL as string;
// registered first, so that it runs before the raw client connects
beforeAll(() => {
  // Only the private server of the run: never a default one.
  expect(url).toMatch(/^redis:\/\//);
  expect(new URL(url).port).not.toBe('6379');
});

const { raw, freshPrefix } = useOwnPrefixes('args');

/** A port on 127.0.0.1 nothing listens on: bound by this process, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `work` rejects with (undefined if it resolves). */
async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Calls connect() with what a JavaScript caller could pass, whatever its type. */
const connectWith = (options: unknown) => connect(options as ConnectOptions);

/** The sockets connect() opens, and their address as Redis lists it (CLIENT LIST addr=), while `work` runs. */
async function clientAddressesOpenedBy(work: () => Promise<unknown>): Promise<Set<string>> {
  const addresses = new Set<string>();
  await watchSocketsOpened(work, (socket) => {
    socket.once('connect', () => addresses.add(`${socket.localAddress?.replace(/^::ffff:/, '')}:${socket.localPort}`));
  });
  return addresses;
}

/** How many of `addresses` the server still lists as connected clients. */
async function liveClients(addresses: Set<string>): Promise<number> {
  const list = String(await raw.sendCommand(['CLIENT', 'LIST']));
  const listed = list.split('\n').map((line) => /(?:^| )addr=(\S+)/.exec(line)?.[1]);
  return listed.filter((address) => address !== undefined && addresses.has(address)).length;
}

/** Waits (up to 30 s, on a loaded machine) for the server to list `expected` of `addresses`: a closed socket is seen a moment later. */
async function expectLiveClients(addresses: Set<string>, expected: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen = await liveClients(addresses);
  while (seen !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await liveClients(addresses);
  }
  expect(seen).toBe(expected);
}

afterEach(() => disconnect());

describe('options that are not an object', () => {
  it('are an ArgumentError that says where the url goes', async () => {
    const error = await rejection(() => connectWith('redis://h:1'));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toBe(
      `connect: options must be an object, got "redis://h:1": a URL goes in the url option, connect({ url: 'redis://host:6379' })`,
    );
  });

  it('null, a number, an array, a URL object or a function alike, each named', async () => {
    for (const options of [null, 6379, [url], new URL(url), () => url]) {
      const error = await rejection(() => connectWith(options));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toContain(`connect: options must be an object, got ${describeValue(options)}:`);
    }
    expect(describeValue(new URL(url))).toMatch(/URL$/);
  });

  it('never show the password of a URL given as the options', async () => {
    const error = await rejection(() => connectWith('redis://:s3cret-pw@h:1'));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).not.toContain('s3cret-pw');
    expect((error as Error).message).toContain('"redis://:***@h:1"');
  });
});

describe('url', () => {
  it('given, must be a non-empty string: null, empty, blank, a number or an object is an ArgumentError naming it', async () => {
    const cases: Array<[unknown, string]> = [
      [null, 'null'],
      ['', '""'],
      ['  ', '"  "'],
      [123, '123'],
      [{ host: '127.0.0.1' }, 'an object'],
      [false, 'false'],
    ];
    for (const [value, named] of cases) {
      const error = await rejection(() => connectWith({ url: value, prefix: freshPrefix() }));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toBe(
        `connect: url must be a non-empty string such as 'redis://host:6379' (or a URL object), got ${named}`,
      );
    }
  });

  it('null is refused the same way with a client too (it is given, not absent)', async () => {
    const error = await rejection(() => connectWith({ url: null, client: raw }));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(/^connect: url must be a non-empty string/);
  });

  it('may be a URL object, taken as its string form', async () => {
    await connect({ url: new URL(url), prefix: freshPrefix() });
    await ArgNote.create({ body: 'through a URL object' });
    expect(await ArgNote.count()).toBe(1);
  });

  it('a string node-redis cannot parse is a ConnectionError without the password', async () => {
    for (const bad of ['http://127.0.0.1:1', 'redis://:s3cret-pw@[not a host']) {
      const error = await rejection(() => connect({ url: bad, prefix: freshPrefix() }));
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(/^connect: invalid url/);
      expect((error as Error).message).not.toContain('s3cret-pw');
    }
  });
});

describe('client and cluster', () => {
  it('client, given, must be a node-redis client: null, 0, a string or another object is an ArgumentError', async () => {
    const cases: Array<[unknown, string]> = [
      [null, 'null'],
      [0, '0'],
      [url, JSON.stringify(url)],
      [{ get: () => null }, 'an object'],
    ];
    for (const [client, named] of cases) {
      const error = await rejection(() => connectWith({ client, prefix: freshPrefix() }));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toBe(
        `connect: client must be a node-redis client (createClient(), createCluster()), an ioredis Redis or Cluster, or an iovalkey Redis or Cluster; got ${named}`,
      );
    }
  });

  it('cluster, given, must be createCluster options with root nodes', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /^connect: cluster must be an object of node-redis createCluster options, .* got null$/],
      [url, /^connect: cluster must be an object .* got "redis:/],
      [{}, /^connect: cluster.rootNodes must list at least one node, .* got undefined$/],
      [{ rootNodes: [] }, /^connect: cluster.rootNodes must list at least one node, .* got an array$/],
      [{ rootNodes: [url] }, /^connect: cluster.rootNodes\[0\] must be an object .* got "redis:/],
    ];
    for (const [cluster, message] of cases) {
      const error = await rejection(() => connectWith({ cluster, prefix: freshPrefix() }));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('client takes neither socket nor commandTimeoutMs, which apply to a client redis-record makes: they are set on the client', async () => {
    const options: Array<[Record<string, unknown>, string]> = [
      [{ socket: { connectTimeout: 500 } }, 'socket'],
      [{ commandTimeoutMs: 200 }, 'commandTimeoutMs'],
    ];
    for (const [option, name] of options) {
      const error = await rejection(() => connectWith({ client: raw, prefix: freshPrefix(), ...option }));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toMatch(
        new RegExp(`^connect: ${name} applies to a client made from url or cluster, not to one passed as client: `),
      );
    }
    await connect({ client: raw, prefix: freshPrefix(), socket: undefined, commandTimeoutMs: undefined });
    expect(await ArgNote.count()).toBe(0);
  });

  it('url, cluster and client exclude each other', async () => {
    const both = await rejection(() => connect({ url, client: raw }));
    expect(both).toBeInstanceOf(ArgumentError);
    expect((both as Error).message).toBe('connect: pass one of url, cluster and client, not url and client');
    const cluster = await rejection(() => connect({ url, cluster: { rootNodes: [{ url }] } }));
    expect((cluster as Error).message).toBe('connect: pass one of url, cluster and client, not url and cluster');
  });
});

describe('the other options', () => {
  it('each, given, must be of its kind', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ prefix: null }, 'invalid prefix null: a non-empty, well-formed string without { or }'],
      [{ prefix: 7 }, 'invalid prefix 7: a non-empty, well-formed string without { or }'],
      [{ socket: 'tls' }, 'socket must be an object of node-redis socket options, got "tls"'],
      [{ commandTimeoutMs: -5 }, 'commandTimeoutMs must be a whole number of ms from 0 (no limit) to 2147483647, got -5'],
      [{ commandTimeoutMs: '100' }, 'commandTimeoutMs must be a whole number of ms from 0 (no limit) to 2147483647, got "100"'],
      [{ commandTimeoutMs: 1.5 }, 'commandTimeoutMs must be a whole number of ms from 0 (no limit) to 2147483647, got 1.5'],
      // Node's timers take at most 2^31 - 1 ms: 2^31 fired after 1 ms, 2^32 and more threw a RangeError
      [{ commandTimeoutMs: 2 ** 31 }, 'commandTimeoutMs must be a whole number of ms from 0 (no limit) to 2147483647, got 2147483648'],
      [
        { commandTimeoutMs: Number.MAX_SAFE_INTEGER },
        'commandTimeoutMs must be a whole number of ms from 0 (no limit) to 2147483647, got 9007199254740991',
      ],
      [{ onSchemaChange: 'warn' }, 'onSchemaChange must be a function, got "warn"'],
    ];
    for (const [options, message] of cases) {
      const error = await rejection(() => connectWith({ url, ...options }));
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as Error).message).toBe(`connect: ${message}`);
    }
  });

  it('an unknown option is refused (a node-redis one such as host would be ignored), unless undefined', async () => {
    const error = await rejection(() => connectWith({ url, host: '127.0.0.1' }));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(
      /^connect: unknown option "host" \(connect takes url, cluster, client, prefix, socket, commandTimeoutMs, onSchemaChange/,
    );
    await connectWith({ url, prefix: freshPrefix(), host: undefined });
    expect(await ArgNote.count()).toBe(0);
  });
});

describe('a connect() refused for its options', () => {
  const refused: Array<[string, () => Promise<unknown>]> = [
    ['a string for the options', () => connectWith(url)],
    ['null options', () => connectWith(null)],
    ['url: null', () => connectWith({ url: null })],
    ['url: ""', () => connectWith({ url: '' })],
    ['url: 123', () => connectWith({ url: 123 })],
    ['client: null', () => connectWith({ client: null })],
    ['client: 0', () => connectWith({ client: 0 })],
    ['url: null with a client', () => connectWith({ url: null, client: raw })],
    ['commandTimeoutMs: -5', () => connect({ url, commandTimeoutMs: -5 })],
    ['commandTimeoutMs: 2^31', () => connect({ url, commandTimeoutMs: 2 ** 31 })],
    ['commandTimeoutMs: 2^32', () => connect({ url, commandTimeoutMs: 2 ** 32 })],
    ['commandTimeoutMs with a client', () => connect({ client: raw, commandTimeoutMs: 200 })],
    ['socket with a client', () => connect({ client: raw, socket: { connectTimeout: 500 } })],
    ['a bad prefix', () => connect({ url, prefix: 'a{b}' })],
    ['an empty cluster', () => connect({ cluster: { rootNodes: [] } })],
    ['an unknown option', () => connectWith({ url, port: 1 })],
  ];

  it.each(refused)('opens no socket (%s)', async (_, call) => {
    const sockets = await socketsOpenedBy(() => rejection(call));
    expect(sockets).toHaveLength(0);
  });

  it('leaves the current connection as it was, whichever check fails', async () => {
    const connection = await connect({ url, prefix: freshPrefix() });
    await ArgNote.create({ body: 'kept' });
    for (const [what, call] of refused) {
      const error = await rejection(call);
      expect([what, error instanceof ArgumentError]).toEqual([what, true]);
      expect(currentConnection()).toBe(connection);
    }
    expect(await ArgNote.count()).toBe(1);
  });

  it('so does a url node-redis cannot parse (a ConnectionError raised before the current connection is touched)', async () => {
    const connection = await connect({ url, prefix: freshPrefix() });
    await expect(connect({ url: 'http://127.0.0.1:1' })).rejects.toThrow(ConnectionError);
    expect(currentConnection()).toBe(connection);
    expect(await ArgNote.count()).toBe(0);
  });

  it('an unreachable server, as documented, leaves no connection: the current one is closed first', async () => {
    const port = await closedPort();
    await connect({ url, prefix: freshPrefix() });
    const error = await rejection(() => connect({ url: `redis://127.0.0.1:${port}` }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/cannot reach Redis: connect ECONNREFUSED/);
    expect(currentConnection()).toBeUndefined();
    await expect(ArgNote.count()).rejects.toThrow(ConnectionError);
  });
});

describe('concurrent connect() and disconnect() calls', () => {
  it('two connects at once leave one client open, and disconnect() closes it', async () => {
    const prefix = freshPrefix();
    let connections: unknown[] = [];
    const addresses = await clientAddressesOpenedBy(async () => {
      connections = await Promise.all([connect({ url, prefix }), connect({ url, prefix })]);
    });
    expect(addresses.size).toBe(2);
    expect(currentConnection()).toBe(connections[1]);
    await expectLiveClients(addresses, 1);
    expect(await ArgNote.count()).toBe(0);

    await disconnect();
    await expectLiveClients(addresses, 0);
  });

  it('the last call wins', async () => {
    const [first, second] = [freshPrefix(), freshPrefix()];
    const addresses = await clientAddressesOpenedBy(async () => {
      const calls = [connect({ url, prefix: first }), connect({ url, prefix: second })];
      await Promise.all(calls);
    });
    expect(currentConnection()?.prefix).toBe(second);
    const note = await ArgNote.create({ body: 'second' });
    expect(await raw.exists(`${second}:{ArgNote}:obj:${note.id}`)).toBe(1);
    await expectLiveClients(addresses, 1);

    const reopened = await clientAddressesOpenedBy(async () => {
      await Promise.all([connect({ url, prefix: first }), disconnect()]);
    });
    expect(currentConnection()).toBeUndefined();
    await expect(ArgNote.count()).rejects.toThrow(ConnectionError);
    await expectLiveClients(new Set([...addresses, ...reopened]), 0);
  });

  it('a call that fails does not stop the calls after it', async () => {
    const port = await closedPort();
    const prefix = freshPrefix();
    const [failed, opened] = await Promise.allSettled([connect({ url: `redis://127.0.0.1:${port}` }), connect({ url, prefix })]);
    expect(failed.status).toBe('rejected');
    expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(ConnectionError);
    expect(opened.status).toBe('fulfilled');
    expect(currentConnection()?.prefix).toBe(prefix);
    expect(await ArgNote.count()).toBe(0);
  });

  it('a refused call rejects at once, without waiting for the calls before it', async () => {
    const pending = connect({ url, prefix: freshPrefix() });
    let settled = false;
    void pending.then(() => (settled = true));
    await expect(connectWith({ url: null })).rejects.toThrow(ArgumentError);
    expect(settled).toBe(false);
    await pending;
    expect(await ArgNote.count()).toBe(0);
  });
});

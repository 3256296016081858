import { createClient } from 'redis';
import { Attr, BaseEntity, connect, ConnectionError, disconnect, Model } from '../../src';
import { currentConnection } from '../../src/redis/connection';
import { SINCE_REDIS_6_2 } from '../../src/redis/server-requirements';
import { ERROR_CODE_PROBE } from '../../src/redis/server-requirements';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { useCli } from '../cli/run-cli';
import { uniquePrefix } from '../support/test-redis';

/**
 * connect() and the command-line tool refuse, before anything is written, a server redis-record cannot keep its
 * guarantees on (src/redis/server-requirements.ts). One requirement is the commands Redis added in 6.2:
 * without them a script fails part way through its writes. No Redis older than 7.0 runs here, so the servers of
 * this file are private redis-servers started with `--rename-command <command> ""`: each then answers COMMAND
 * INFO as an older Redis does, with a null for the command it lacks. The other requirement, a script's error
 * code passed on, cannot be taken away from a Redis 7: its probe is checked here on a server that passes it,
 * and CONTRIBUTING.md says how to see Redis 6.0 refused for both.
 */

@Model()
class SvNote extends BaseEntity {
  @Attr() text?: string;
}

const cli = useCli('server-requirements');
const prefix = uniquePrefix('server-requirements');
const servers: PrivateRedis[] = [];

async function serverWithout(command: string): Promise<PrivateRedis> {
  const server = await startPrivateRedis(['--rename-command', command, '']);
  servers.push(server);
  return server;
}

async function keysOf(server: PrivateRedis): Promise<number> {
  const admin = createClient({ url: server.url });
  await admin.connect();
  try {
    return await admin.dbSize();
  } finally {
    await admin.close();
  }
}

afterAll(async () => {
  await disconnect();
  await Promise.all(servers.map((server) => server.stop()));
});

describe('a server without a command of Redis 6.2', () => {
  it.each([...SINCE_REDIS_6_2])(
    'without %s: connect() is a ConnectionError naming it and the server, and writes nothing',
    async (command) => {
      const server = await serverWithout(command);
      const error = await connect({ url: server.url, prefix }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^connect: the server \\((Redis|Valkey) \\d+\\.\\d+\\.\\d+\\) has no ${command}: redis-record needs Redis 7.0 or later, or Valkey;.*Nothing was written$`,
        ),
      );
      // not even the model definitions, which connect() writes once the server is known to be fit
      expect(await keysOf(server)).toBe(0);
      // and no connection is left: an operation is refused as without connect()
      await expect(SvNote.create({ text: 'a' })).rejects.toBeInstanceOf(ConnectionError);
    },
  );

  it('the command-line tool refuses it too: exit code 2 (a failure, not violations found), the reason on stderr, nothing written', async () => {
    const server = await serverWithout('ZMSCORE');
    const run = await cli.run(['check'], { url: server.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the server \((Redis|Valkey) [\d.]+\) has no ZMSCORE: redis-record needs Redis 7\.0 or later/);
    expect(await keysOf(server)).toBe(0);
  });
});

describe('a server that does not answer a probe', () => {
  it.each(['COMMAND', 'EVAL'])('without %s: not refused, as what it lacks cannot be told; it works as before', async (command) => {
    // (without EVAL, the scripts still run: they are loaded with SCRIPT LOAD and called with EVALSHA)
    const server = await serverWithout(command);
    await connect({ url: server.url, prefix });
    const note = await SvNote.create({ text: 'kept' });
    expect((await SvNote.find(note.id))?.text).toBe('kept');
    await disconnect();
  });
});

describe('a server that comes back unfit after a reconnection', () => {
  /** Stops `server` and starts another on its port with `args`, resolving once the connection's client is ready on it. */
  async function replaceServer(server: PrivateRedis, args: string[]): Promise<PrivateRedis> {
    const transport = currentConnection()!.transport;
    const ready = new Promise<void>((resolve) => {
      const stop = transport.onReconnect(() => {
        stop();
        resolve();
      });
    });
    await server.stop();
    const next = await startPrivateRedis(args, server.port);
    servers.push(next);
    await ready;
    return next;
  }

  it('refuses the operations that follow, writing nothing, until a fit server is back', async () => {
    const first = await startPrivateRedis();
    servers.push(first);
    await connect({ url: first.url, prefix });
    await SvNote.create({ text: 'before' });

    // the same address, another server (no persistence: it comes back empty), without ZMSCORE
    const unfit = await replaceServer(first, ['--rename-command', 'ZMSCORE', '']);
    const error = await SvNote.create({ text: 'refused' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^after the client reconnected: the server \((Redis|Valkey) [\d.]+\) has no ZMSCORE: .*Nothing was written$/,
    );
    // the next operation asks again (a refusal is not kept), and is refused the same way: once the client has
    // reconnected, a refusal never reads as one at connect(), whether or not the reconnection's own ask had
    // already settled when the operation came
    const again = await SvNote.create({ text: 'refused again' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(again).toBeInstanceOf(ConnectionError);
    expect((again as Error).message).toMatch(/^after the client reconnected: the server \((Redis|Valkey) [\d.]+\) has no ZMSCORE: /);
    // neither the objects nor the model definitions, which a reconnection writes again
    expect(await keysOf(unfit)).toBe(0);

    // a fit server back: the next operation asks again, and goes on
    const fit = await replaceServer(unfit, []);
    const note = await SvNote.create({ text: 'after' });
    expect((await SvNote.find(note.id))?.text).toBe('after');
    expect(await keysOf(fit)).toBeGreaterThan(0);
    await disconnect();
  });
});

describe('the error-code probe', () => {
  it("comes back from the suite's server as its own error, its code first: what connect() asks of a server", async () => {
    const admin = createClient({ url: process.env.REDIS_URL! });
    await admin.connect();
    try {
      await expect(admin.sendCommand(['EVAL', ERROR_CODE_PROBE, '0'])).rejects.toThrow(
        /^RRPROBE scripts pass on the error codes they raise/,
      );
    } finally {
      await admin.close();
    }
  });
});

import { spawn, spawnSync, ChildProcess } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { createServer, createConnection } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

/**
 * A throwaway redis-server for tests, the demo and benchmarks: a free port on 127.0.0.1, a temp dir,
 * nothing saved to disk (unless asked), stopped and removed by stop(). It never touches another Redis.
 */
export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export const MISSING_REDIS =
  'redis-record: redis-server is not on PATH and REDIS_URL is not set: install Redis (apt-get install -y redis-server) or set REDIS_URL=redis://host:port';

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      reply += data.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        // A server started with --requirepass answers -NOAUTH: it is up all the same.
        resolve(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** How redis-server is run: under another program (`under`: its command line, redis-server's appended), given `startMs` to answer. */
export interface RedisLaunch {
  readonly under?: readonly string[];
  readonly startMs?: number;
}

/**
 * Starts redis-server with `extraArgs` appended (e.g. ['--appendonly', 'yes']), or under another program
 * (`launch.under`: valgrind, say); resolves once it answers PING (within 5 s unless `launch.startMs` says more).
 */
export async function startPrivateRedis(extraArgs: string[] = [], port?: number, launch: RedisLaunch = {}): Promise<PrivateRedis> {
  const [command, ...prefix] = [...(launch.under ?? []), 'redis-server'];
  const tries = Math.ceil((launch.startMs ?? 5000) / 50);
  for (let attempt = 0; ; attempt++) {
    const chosen = port ?? (await freePort());
    const dir = mkdtempSync(join(tmpdir(), 'redis-record-'));
    const child = spawn(
      command,
      [...prefix, '--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs],
      { stdio: 'ignore' },
    );
    let exited = false;
    child.once('exit', () => (exited = true));
    for (let i = 0; i < tries && !exited; i++) {
      if (await ping(chosen)) {
        return {
          url: `redis://127.0.0.1:${chosen}`,
          port: chosen,
          dir,
          process: child,
          stop: () => stopServer(child, dir),
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await stopServer(child, dir);
    if (attempt >= 4 || port !== undefined) throw new Error(`redis-server did not start on port ${chosen}`);
  }
}

/**
 * Kills `server` with SIGKILL (a crash: nothing flushed but what it already wrote), runs `whileDown` on its files,
 * and starts redis-server again on the same port with `extraArgs`; resolves to the new server. The old one's
 * temp dir is removed; pass `--dir` in `extraArgs` for data that outlives the restart.
 */
export async function killAndRestart(
  server: PrivateRedis,
  extraArgs: string[],
  whileDown: () => void = () => undefined,
): Promise<PrivateRedis> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
  await server.stop();
  whileDown();
  return startPrivateRedis(extraArgs, server.port);
}

async function stopServer(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * REDIS_URL when set; otherwise a private server. Exits the process with one line naming both fixes when
 * there is neither.
 */
export async function redisForRun(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  if (!redisServerInstalled()) {
    console.error(MISSING_REDIS);
    process.exit(1);
  }
  return startPrivateRedis();
}

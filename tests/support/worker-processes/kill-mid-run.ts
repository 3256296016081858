import type { RawClient } from '../test-redis';
import { untilReady, WorkerProcess } from './spawn-worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The crash tests' kill: waits until the worker is ready, lets it run for a random time in `runMs` (low, high),
 * kills it with SIGKILL, and returns once the process is gone and Redis has dropped its connection (named
 * `clientName`), i.e. has run every command it had received from it.
 */
export async function killMidRun(
  worker: WorkerProcess,
  options: { name: string; raw: RawClient; clientName: string; runMs: readonly [number, number] },
): Promise<void> {
  await untilReady(worker, 60_000, options.name);
  const [low, high] = options.runMs;
  await sleep(low + Math.floor(Math.random() * (high - low + 1)));
  worker.child.kill('SIGKILL');
  await worker.finished;
  await waitUntilDisconnected(options.raw, options.clientName);
}

async function waitUntilDisconnected(raw: RawClient, clientName: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const list = String(await raw.sendCommand(['CLIENT', 'LIST']));
    if (!list.split('\n').some((line) => line.includes(` name=${clientName} `))) return;
    await sleep(10);
  }
  throw new Error(`Redis still lists the killed worker's connection ${clientName}`);
}

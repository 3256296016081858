import { runTogether, startWorkerProcess, WorkerProcess } from '../worker-processes/spawn-worker';
import { transpileWorkers, TranspiledWorkers } from '../worker-processes/transpile';

const WORKER_SOURCE = 'tests/support/expiry-workers/worker.ts';

export interface ExpiryWorkers {
  /** Starts one worker (it waits for `go()`). */
  start(mode: string, args: object): WorkerProcess;
  /** Runs `count` workers of one mode together and resolves once all have exited. */
  run(mode: string, count: number, args: (worker: number) => object, timeoutMs?: number): Promise<WorkerProcess[]>;
}

/** Compiles the workers of tests/support/expiry-workers once for the test file; removes them afterwards. */
export function useExpiryWorkers(redis: { readonly prefix: string }): ExpiryWorkers {
  let compiled: TranspiledWorkers | undefined;
  const started: WorkerProcess[] = [];
  beforeAll(() => {
    compiled = transpileWorkers(`expiry-${redis.prefix}`, ['tests/support/expiry-workers']);
  });
  afterAll(() => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    compiled?.remove();
  });
  const env = (mode: string, args: object) => ({
    REDIS_URL: process.env.REDIS_URL!,
    WORKER_PREFIX: redis.prefix,
    WORKER_MODE: mode,
    WORKER_ARGS: JSON.stringify(args),
  });
  return {
    start(mode, args) {
      const worker = startWorkerProcess(compiled!.script(WORKER_SOURCE), env(mode, args));
      started.push(worker);
      return worker;
    },
    run(mode, count, args, timeoutMs) {
      return runTogether(compiled!.script(WORKER_SOURCE), count, (i) => env(mode, args(i)), timeoutMs);
    },
  };
}

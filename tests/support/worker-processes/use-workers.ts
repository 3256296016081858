import { runTogether, startWorkerProcess, WorkerProcess } from './spawn-worker';
import { transpileWorkers, TranspiledWorkers } from './transpile';

export interface Workers {
  /** Starts one worker with `env` added to its environment (REDIS_URL and WORKER_PREFIX are set already). */
  start(env: Record<string, string>): WorkerProcess;
  /** Runs `count` workers together (see runTogether) and resolves once all have exited. */
  run(count: number, env: (worker: number) => Record<string, string>, timeoutMs?: number): Promise<WorkerProcess[]>;
}

/** The environment of a worker whose mode is chosen by WORKER_MODE and given its arguments as JSON in WORKER_ARGS. */
export function modeEnv(mode: string, args: object): Record<string, string> {
  return { WORKER_MODE: mode, WORKER_ARGS: JSON.stringify(args) };
}

/**
 * The worker `source` (relative to the repository root) for the test file or describe block that calls this:
 * its folder, src/ and this folder are transpiled once before its tests (see transpileWorkers) and removed
 * after them, and every worker it started that is still running is killed. Workers talk to the test's Redis
 * (REDIS_URL) under its prefix (WORKER_PREFIX).
 */
export function useWorkerProcesses(redis: { readonly prefix: string }, label: string, source: string): Workers {
  let compiled: TranspiledWorkers | undefined;
  const started: WorkerProcess[] = [];
  beforeAll(() => {
    const folder = source.slice(0, source.lastIndexOf('/'));
    compiled = transpileWorkers(`${label}-${redis.prefix}`, [folder, 'tests/support/worker-processes']);
  });
  afterAll(() => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    compiled?.remove();
  });
  const fullEnv = (env: Record<string, string>) => ({ REDIS_URL: process.env.REDIS_URL!, WORKER_PREFIX: redis.prefix, ...env });
  return {
    start(env) {
      const worker = startWorkerProcess(compiled!.script(source), fullEnv(env));
      started.push(worker);
      return worker;
    },
    run(count, env, timeoutMs) {
      return runTogether(compiled!.script(source), count, (i) => fullEnv(env(i)), timeoutMs);
    },
  };
}

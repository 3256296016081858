import { WorkerProcess } from '../worker-processes/spawn-worker';
import { modeEnv, useWorkerProcesses } from '../worker-processes/use-workers';

/** Compiles the workers of tests/support/write-workers once for the test file; runs `count` of one mode together. */
export function useWriteWorkers(redis: { readonly prefix: string }): {
  run(mode: string, count: number, args: (worker: number) => object): Promise<WorkerProcess[]>;
} {
  const workers = useWorkerProcesses(redis, 'writes', 'tests/support/write-workers/worker.ts');
  return { run: (mode, count, args) => workers.run(count, (i) => modeEnv(mode, args(i))) };
}

import { WorkerProcess } from '../worker-processes/spawn-worker';
import { modeEnv, useWorkerProcesses } from '../worker-processes/use-workers';

/** Compiles tests/support/cap-workers once for the test file; runs `count` of them together. */
export function useCapWorkers(redis: { readonly prefix: string }): {
  run(mode: string, count: number, args: (worker: number) => object, timeoutMs?: number): Promise<WorkerProcess[]>;
} {
  const workers = useWorkerProcesses(redis, 'cap', 'tests/support/cap-workers/worker.ts');
  return { run: (mode, count, args, timeoutMs) => workers.run(count, (i) => modeEnv(mode, args(i)), timeoutMs) };
}

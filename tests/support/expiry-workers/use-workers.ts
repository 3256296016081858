import { WorkerProcess } from '../worker-processes/spawn-worker';
import { modeEnv, useWorkerProcesses } from '../worker-processes/use-workers';

export interface ExpiryWorkers {
  /** Starts one worker (it waits for `go()`). */
  start(mode: string, args: object): WorkerProcess;
  /** Runs `count` workers of one mode together and resolves once all have exited. */
  run(mode: string, count: number, args: (worker: number) => object, timeoutMs?: number): Promise<WorkerProcess[]>;
}

/** Compiles the workers of tests/support/expiry-workers once for the test file; removes them afterwards. */
export function useExpiryWorkers(redis: { readonly prefix: string }): ExpiryWorkers {
  const workers = useWorkerProcesses(redis, 'expiry', 'tests/support/expiry-workers/worker.ts');
  return {
    start: (mode, args) => workers.start(modeEnv(mode, args)),
    run: (mode, count, args, timeoutMs) => workers.run(count, (i) => modeEnv(mode, args(i)), timeoutMs),
  };
}

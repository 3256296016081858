import { ChildProcess, spawn } from 'child_process';

/**
 * A worker process speaking a line protocol on stdout: `ready` once it is connected, then whatever its
 * mode reports. Most start their work when the test writes a line to its stdin (so that several workers
 * really run at the same time); a worker may also start by itself once ready (the crash worker does).
 */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Every complete stdout line so far, `ready` excepted (a line cut short by a kill is not one). */
  readonly lines: string[];
  /** Resolves once it has printed `ready` (true), or has exited without (false). */
  readonly ready: Promise<boolean>;
  /** Resolves with its exit code once it has exited and its output is read. */
  readonly finished: Promise<number | null>;
  /** Resolves with the first line starting with `prefix` (or undefined if it exits first). */
  waitForLine(prefix: string): Promise<string | undefined>;
  /** Tells it to start. */
  go(): void;
  stderr(): string;
}

export function startWorkerProcess(script: string, env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string | undefined) => void }> = [];
  let partial = '';
  let stderr = '';
  let signalReady: (printed: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((resolve) => (signalReady = resolve));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      if (line === 'ready') {
        signalReady(true);
        continue;
      }
      lines.push(line);
      for (const waiter of waiters.filter((w) => line.startsWith(w.prefix))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const drained = new Promise<void>((resolve) => child.stdout!.once('end', () => resolve()));
  const finished = Promise.all([exited, drained]).then(([code]) => code);
  // A worker that dies before `ready` must not leave the test waiting.
  void finished.then(() => {
    signalReady(false);
    for (const waiter of waiters.splice(0)) waiter.resolve(undefined);
  });
  return {
    child,
    lines,
    ready,
    finished,
    waitForLine: (prefix) => {
      const seen = lines.find((line) => line.startsWith(prefix));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ prefix, resolve }));
    },
    go: () => child.stdin!.write('go\n'),
    stderr: () => stderr,
  };
}

/** Waits until the worker has printed `ready`; kills it and throws with its output if it exits first or takes over `timeoutMs`. */
export async function untilReady(worker: WorkerProcess, timeoutMs: number, name = 'worker'): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    worker.ready.then((printed) => (printed ? ('ready' as const) : ('exited' as const))),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    worker.child.kill('SIGKILL');
    throw new Error(`${name} did not start (${outcome}): ${worker.stderr() || worker.lines.join('\n')}`);
  }
}

/** Starts `count` workers, waits until all are ready, starts them together and waits for them all to exit. */
export async function runTogether(
  script: string,
  count: number,
  env: (worker: number) => Record<string, string>,
  timeoutMs = 120_000,
): Promise<WorkerProcess[]> {
  const workers = Array.from({ length: count }, (_, i) => startWorkerProcess(script, env(i)));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.all(workers.map((w) => w.ready));
    for (const worker of workers) worker.go();
    const all = Promise.all(workers.map((w) => w.finished));
    const outcome = await Promise.race([
      all.then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
    ]);
    if (outcome === 'timeout') throw new Error(`workers still running after ${timeoutMs} ms`);
    return workers;
  } finally {
    clearTimeout(timer);
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }
}

/** The worker's `done <json>` report; throws with its output when it did not finish cleanly. */
export function reportOf<T>(worker: WorkerProcess): T {
  const done = worker.lines.find((line) => line.startsWith('done '));
  const problems = worker.lines.filter((line) => line.startsWith('error '));
  if (!done || problems.length > 0 || worker.child.exitCode !== 0) {
    throw new Error(`worker failed (exit ${worker.child.exitCode}): ${[...problems, worker.stderr()].join('\n').slice(0, 2000)}`);
  }
  return JSON.parse(done.slice(5)) as T;
}

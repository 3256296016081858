import { ChildProcess, spawn } from 'child_process';

export interface Worker {
  readonly child: ChildProcess;
  /** Every complete stdout line so far. */
  readonly lines: string[];
  /** Resolves once it has printed `ready`. */
  readonly ready: Promise<void>;
  /** Resolves with its exit code once it has exited and its output is read. */
  readonly finished: Promise<number | null>;
  stderr(): string;
}

/** Starts the compiled index worker with the given environment. */
export function startWorker(script: string, env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      if (line === 'ready') signalReady();
      else lines.push(line);
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const drained = new Promise<void>((resolve) => child.stdout!.once('end', () => resolve()));
  const finished = Promise.all([exited, drained]).then(([code]) => code);
  // A worker that dies before `ready` must not leave the test waiting.
  void finished.then(() => signalReady());
  return { child, lines, ready, finished, stderr: () => stderr };
}

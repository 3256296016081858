import { ChildProcess, fork } from 'child_process';
import { extname, join } from 'path';

/** What a child sends the suite of an error: its stack where it has one. */
export const failureText = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** A child process of the suite, and its messages to the suite taken in order. */
export interface BenchChild<From> {
  readonly process: ChildProcess;
  /** The child's next message; rejects once the child has ended without sending one. */
  next(): Promise<From>;
  /** Asks the child to close (`closing`), and waits for it to end (killed after 10 s). */
  close(closing: unknown): Promise<void>;
}

/**
 * Starts the child module `name` of this folder (writer-child, table-one-child) with `setup` as its one argument,
 * in JSON. Run from the TypeScript sources (npm run bench), the child runs them through ts-node as this process
 * does; run from a compiled copy, it runs the compiled child. `nodeFlags` are given to the child's Node.js (V8
 * options such as `--no-flush-bytecode`, which NODE_OPTIONS does not take); none by default, as for an
 * application. `label` names the child in errors.
 */
export function forkBenchChild<From>(name: string, setup: unknown, label: string, nodeFlags: readonly string[] = []): BenchChild<From> {
  const compiled = extname(__filename) === '.js';
  const child = fork(join(__dirname, `${name}${extname(__filename)}`), [JSON.stringify(setup)], {
    execArgv: [...nodeFlags, ...(compiled ? [] : ['-r', 'ts-node/register/transpile-only'])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = new Replies<From>(child, label);
  return {
    process: child,
    next: () => replies.next(),
    async close(closing) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // a child that failed may be closing its channel already: the send then fails, and the wait below still holds
      if (child.connected) child.send(closing as object, () => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child's messages, taken in order; a child that exits before answering fails the wait. */
class Replies<From> {
  private readonly queued: From[] = [];
  private waiting: { resolve(message: From): void; reject(error: Error): void } | undefined;
  private ended: Error | undefined;

  constructor(child: ChildProcess, label: string) {
    child.on('message', (message: From) => {
      if (this.waiting) {
        this.waiting.resolve(message);
        this.waiting = undefined;
      } else {
        this.queued.push(message);
      }
    });
    child.once('exit', (code, signal) => {
      this.ended = new Error(`the ${label} process ended (${signal ?? `exit code ${code}`})`);
      this.waiting?.reject(this.ended);
      this.waiting = undefined;
    });
  }

  next(): Promise<From> {
    const message = this.queued.shift();
    if (message !== undefined) return Promise.resolve(message);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

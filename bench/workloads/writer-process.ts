import { ChildProcess, fork } from 'child_process';
import { extname, join } from 'path';
import type { WriterKind } from './bulk-writers';
import type { FromWriter, ToWriter, WriterSetup } from './writer-messages';

/** What one run of a writer process measured (writer-messages.ts). */
export type WriterRun = Omit<Extract<FromWriter, { type: 'ran' }>, 'type'>;

/** A writer of the bulk workload running in a process of its own (writer-child.ts explains why). */
export interface WriterProcess<K extends WriterKind = WriterKind> {
  readonly kind: K;
  readonly name: string;
  /** How the writer writes many posts (its bulkMethod). */
  readonly method: string;
  /**
   * One bulk create of the first `size` posts; resolves to its seconds, CPU time, garbage-collection pauses,
   * page faults and own count.
   */
  run(size: number): Promise<WriterRun>;
  /** Closes the writer's connections and waits for its process to end. */
  close(): Promise<void>;
}

/**
 * Starts the process of one writer and waits until it is connected and has made its posts. Run from the
 * TypeScript sources (npm run bench), the child runs them through ts-node as this process does; run from a
 * compiled copy, it runs the compiled child. `nodeFlags` are given to the child's Node.js (V8 options such as
 * `--no-flush-bytecode`, which NODE_OPTIONS does not take); none by default, as for an application.
 */
export function startWriter<K extends WriterKind>(setup: WriterSetup & { readonly kind: K }, nodeFlags: readonly string[] = []): Promise<WriterProcess<K>> {
  const compiled = extname(__filename) === '.js';
  const child = fork(join(__dirname, `writer-child${extname(__filename)}`), [JSON.stringify(setup)], {
    execArgv: [...nodeFlags, ...(compiled ? [] : ['-r', 'ts-node/register/transpile-only'])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = new Replies(child, setup.kind);
  return replies.next().then((ready) => {
    if (ready.type !== 'ready') throw new Error(`${setup.kind} writer process: ${ready.type === 'failed' ? ready.message : 'no ready message'}`);
    return {
      kind: setup.kind,
      name: ready.name,
      method: ready.method,
      async run(size) {
        child.send({ type: 'run', size } satisfies ToWriter);
        const reply = await replies.next();
        if (reply.type !== 'ran') throw new Error(`${ready.name}: ${reply.type === 'failed' ? reply.message : 'unexpected reply'}`);
        // the reply's figures as they came (WriterRun: the 'ran' message without its type)
        const { type: _ran, ...measured } = reply;
        return measured;
      },
      async close() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        if (child.connected) child.send({ type: 'close' } satisfies ToWriter);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      },
    };
  });
}

/** The child's messages, taken in order; a child that exits before answering fails the wait. */
class Replies {
  private readonly queued: FromWriter[] = [];
  private waiting: { resolve(message: FromWriter): void; reject(error: Error): void } | undefined;
  private ended: Error | undefined;

  constructor(child: ChildProcess, kind: WriterKind) {
    child.on('message', (message: FromWriter) => {
      if (this.waiting) {
        this.waiting.resolve(message);
        this.waiting = undefined;
      } else {
        this.queued.push(message);
      }
    });
    child.once('exit', (code, signal) => {
      this.ended = new Error(`the ${kind} writer process ended (${signal ?? `exit code ${code}`})`);
      this.waiting?.reject(this.ended);
      this.waiting = undefined;
    });
  }

  next(): Promise<FromWriter> {
    const message = this.queued.shift();
    if (message) return Promise.resolve(message);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

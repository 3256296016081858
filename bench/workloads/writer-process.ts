import { forkBenchChild } from './bench-child';
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
 * Starts the process of one writer (forkBenchChild, with `nodeFlags`) and waits until it is connected and has made
 * its posts.
 */
export async function startWriter<K extends WriterKind>(
  setup: WriterSetup & { readonly kind: K },
  nodeFlags: readonly string[] = [],
): Promise<WriterProcess<K>> {
  const child = forkBenchChild<FromWriter>('writer-child', setup, `${setup.kind} writer`, nodeFlags);
  const ready = await child.next();
  if (ready.type !== 'ready') {
    await child.close({ type: 'close' } satisfies ToWriter);
    throw new Error(`${setup.kind} writer process: ${ready.type === 'failed' ? ready.message : 'no ready message'}`);
  }
  return {
    kind: setup.kind,
    name: ready.name,
    method: ready.method,
    async run(size) {
      child.process.send({ type: 'run', size } satisfies ToWriter);
      const reply = await child.next();
      if (reply.type !== 'ran') throw new Error(`${ready.name}: ${reply.type === 'failed' ? reply.message : 'unexpected reply'}`);
      // the reply's figures as they came (WriterRun: the 'ran' message without its type)
      const { type: _ran, ...measured } = reply;
      return measured;
    },
    close: () => child.close({ type: 'close' } satisfies ToWriter),
  };
}

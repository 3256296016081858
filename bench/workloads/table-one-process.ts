import { forkBenchChild } from './bench-child';
import type { Operation } from './table-one';
import type { FromTableOne, TableOneSetup, ToTableOne } from './table-one-messages';

/** A writer of Table I running in a process of its own (table-one-child.ts explains why). */
export interface TableOneProcess<N extends string = string> {
  readonly name: N;
  /** Whether the writer can count (redis-om cannot without RediSearch). */
  readonly counts: boolean;
  /** Forgets the ids of a previous repetition (the data is gone). */
  reset(size: number): Promise<void>;
  /** The seconds one block of `operation` took in the writer's process: posts [from, to), `concurrency` in flight. */
  time(operation: Operation, from: number, to: number, concurrency: number): Promise<number>;
  /** How many posts the writer holds. */
  count(): Promise<number>;
  /** The content of post `i` (after load(i) in the load step). */
  load(i: number): Promise<string>;
  /** Closes the writer's connections and waits for its process to end. */
  close(): Promise<void>;
}

type Reply<T extends FromTableOne['type']> = Extract<FromTableOne, { type: T }>;

/** Starts the process of one writer and waits until it is connected and has made its posts. */
export async function startTableOne<N extends string>(setup: TableOneSetup & { readonly kind: N }): Promise<TableOneProcess<N>> {
  const child = forkBenchChild<FromTableOne>('table-one-child', setup, `${setup.kind} Table I`);
  const close = () => child.close({ type: 'close' } satisfies ToTableOne);
  const ready = await child.next();
  if (ready.type !== 'ready') {
    await close();
    throw new Error(`${setup.kind} Table I process: ${ready.type === 'failed' ? ready.message : 'no ready message'}`);
  }
  const ask = async <T extends FromTableOne['type']>(request: ToTableOne, expected: T): Promise<Reply<T>> => {
    child.process.send(request);
    const reply = await child.next();
    if (reply.type !== expected)
      throw new Error(`${setup.kind}: ${reply.type === 'failed' ? reply.message : `${reply.type} where ${expected} was expected`}`);
    return reply as Reply<T>;
  };
  return {
    name: setup.kind,
    counts: ready.counts,
    reset: async (size) => void (await ask({ type: 'reset', size }, 'done')),
    time: async (operation, from, to, concurrency) => (await ask({ type: 'time', operation, from, to, concurrency }, 'timed')).seconds,
    count: async () => (await ask({ type: 'count' }, 'counted')).count,
    load: async (i) => (await ask({ type: 'load', i }, 'loaded')).content,
    close,
  };
}

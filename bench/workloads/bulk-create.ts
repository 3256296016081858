import { check, median } from '../support/measure';
import type { PeerName } from '../peers/peer';
import { faultsBetween } from '../support/redis-faults';
import type { Server } from './server';
import type { SuiteWriterKind } from './bulk-writers';
import type { WriterProcess } from './writer-process';

/**
 * Bulk create: n posts written by each peer its fastest way (redis-record: saveMany; the others: a pipeline
 * or many creates in flight), on an empty database, the order of the peers rotating per repetition. Each
 * writer runs in a process of its own (writer-child.ts says why), which times its call; the count is checked
 * after. A reference writer (not a library) takes its turns in the rotation like a peer.
 */
export interface BulkFigure {
  seconds: number;
  objectsPerSecond: number;
  runs: number[];
  method: string;
}

export interface BulkResult {
  n: number;
  reps: number;
  /** Posts in each writer's first run, not measured: the one-time costs of a process (heap growth, compiling). */
  warmup: number;
  results: Partial<Record<PeerName, BulkFigure>>;
  /** The reference writer's figure (bench/peers/transport-reference.ts): not a library. */
  reference?: BulkFigure & { name: string };
}

export async function bulkCreate(
  writers: ReadonlyArray<WriterProcess<SuiteWriterKind>>,
  server: Server,
  options: { n: number; reps: number; warmup: number; log: (line: string) => void },
): Promise<BulkResult> {
  const { n, reps } = options;
  const runs = new Map<WriterProcess<SuiteWriterKind>, number[]>(writers.map((writer) => [writer, []]));
  const once = async (writer: WriterProcess<SuiteWriterKind>, size: number) => {
    await server.flush();
    const redisBefore = server.pageFaults();
    const run = await writer.run(size);
    const redisFaults = faultsBetween(redisBefore, server.pageFaults());
    const count = run.stored ?? (await server.keyCount());
    check(count === size, `${writer.name} holds ${count} posts after bulk create, expected ${size}`);
    await server.flush();
    return { ...run, redisFaults };
  };
  const warmup = Math.min(options.warmup, n);
  for (const writer of writers) await once(writer, warmup);
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < writers.length; k++) {
      const writer = writers[(k + rep) % writers.length];
      const { seconds, cpuMicros, gcMicros, pageFaults, redisFaults } = await once(writer, n);
      runs.get(writer)!.push(seconds);
      // the writer process's CPU per post: what tells a slow run of a busy machine from a costlier one; the page
      // faults: memory the writer and Redis took from the kernel during the run (docs/bulk-operations.md)
      const cpu = `${(cpuMicros / n).toFixed(1)} us of its CPU per post (GC pauses ${(gcMicros / n).toFixed(1)})`;
      const perThousand = (faults: number) => Math.round((faults * 1000) / n);
      const faults = `page faults per 1,000 posts: its ${perThousand(pageFaults)}, Redis's ${redisFaults === null ? '-' : perThousand(redisFaults)}`;
      options.log(
        `bulk create ${rep + 1}/${reps}: ${writer.name} ${Math.round(n / seconds).toLocaleString('en-US')} posts/s, ${cpu}, ${faults}`,
      );
    }
  }
  const figure = (writer: WriterProcess<SuiteWriterKind>): BulkFigure => {
    const seconds = median(runs.get(writer)!);
    return { seconds, objectsPerSecond: n / seconds, runs: runs.get(writer)!, method: writer.method };
  };
  const results: BulkResult['results'] = {};
  let reference: BulkResult['reference'];
  for (const writer of writers) {
    if (writer.kind === 'reference') reference = { name: writer.name, ...figure(writer) };
    else results[writer.kind] = figure(writer);
  }
  return { n, reps, warmup, results, ...(reference && { reference }) };
}

import type { Client } from '../support/bench-redis';
import { check, median } from '../support/measure';
import { printTable } from '../support/table';

/**
 * The query kinds beyond the ones nohm answers (negation, absence, keyset pages, facets), each timed against
 * the hand-written node-redis commands that answer it on redis-record's own keys, alternately in one run: the
 * ratio is what the library's query costs over the commands a user would write knowing the key layout (and, for
 * the facet, the values an attribute takes).
 */
export interface KindWorkload {
  readonly label: string;
  readonly record: () => Promise<unknown>;
  readonly hand: () => Promise<unknown>;
  /** The two answers in one comparable form (checked equal outside the timed calls). */
  readonly same: (record: unknown, hand: unknown) => boolean;
  /** For a write on keys of its own per side: reads what each side left, checked equal after its first call and after the timed ones. */
  readonly state?: { readonly record: () => Promise<unknown>; readonly hand: () => Promise<unknown> };
}

interface PostLike {
  readonly id?: string;
  readonly score: number;
}

interface RecordQueries {
  count(where: object): Promise<number>;
  findPage(where: object, options: object): Promise<{ items: PostLike[]; next: string | null }>;
  countBy(attribute: string, where: object): Promise<Record<string, number>>;
}

/** The workloads on the benchmark's posts (topic t0..t9, score 0..999), under the model's key base. */
export async function kindWorkloads(Post: RecordQueries, raw: Client, base: string): Promise<KindWorkload[]> {
  const topics = Array.from({ length: 10 }, (_, t) => `t${t}`);
  const tmp = `${base}:benchtmp`;
  // a cursor 1,000 posts deep into the order by score, desc
  const deep = await Post.findPage({}, { orderBy: { score: 'desc' }, limit: 1000 });
  const last = deep.items[deep.items.length - 1];
  const equalJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return [
    {
      label: "K1 count topic notIn ['t3', 't4']",
      record: () => Post.count({ topic: { notIn: ['t3', 't4'] } }),
      async hand() {
        const [, , count] = await raw
          .multi()
          .zUnionStore(tmp, [`${base}:idx:topic:t3`, `${base}:idx:topic:t4`])
          .zDiffStore(`${tmp}2`, [`${base}:all`, tmp])
          .zCard(`${tmp}2`)
          .del([tmp, `${tmp}2`])
          .exec();
        return Number(count);
      },
      same: (a, b) => a === b,
    },
    {
      label: "K2 count topic = 't3' AND score exists",
      record: () => Post.count({ topic: 't3', score: { exists: true } }),
      async hand() {
        const [, , count] = await raw
          .multi()
          .zRangeStore(tmp, `${base}:idx:score`, '-inf', '(inf', { BY: 'SCORE' })
          .zInterStore(`${tmp}2`, [tmp, `${base}:idx:topic:t3`])
          .zCard(`${tmp}2`)
          .del([tmp, `${tmp}2`])
          .exec();
        return Number(count);
      },
      same: (a, b) => a === b,
    },
    {
      label: 'K3 findPage of 20 by score desc, 1,000 deep, objects',
      record: async () => (await Post.findPage({}, { orderBy: { score: 'desc' }, limit: 20, after: deep.next! })).items,
      async hand() {
        // the keyset by hand: the scores from the cursor's down, its ties up to it skipped, then the hashes
        const rows = await raw.zRangeWithScores(`${base}:idx:score`, last.score, '-inf', {
          BY: 'SCORE',
          REV: true,
          LIMIT: { offset: 0, count: 400 },
        });
        // ties come in reverse byte order; the order's is reverse numeric (sequence ids)
        const after = rows
          .filter((row) => row.score < last.score || Number(row.value) < Number(last.id))
          .sort((a, b) => b.score - a.score || Number(b.value) - Number(a.value))
          .slice(0, 20);
        const pipeline = raw.multi();
        for (const row of after) pipeline.hGetAll(`${base}:obj:${row.value}`);
        const hashes = (await pipeline.execAsPipeline()) as unknown as Array<Record<string, string>>;
        return hashes.map((hash) => ({ id: hash['#id'], score: Number(hash.score) }));
      },
      same: (a, b) =>
        equalJson(
          (a as PostLike[]).map((post) => ({ id: post.id, score: post.score })),
          b,
        ),
    },
    {
      label: 'K4 countBy topic where score 100..200',
      record: () => Post.countBy('topic', { score: { gte: 100, lte: 200 } }),
      async hand() {
        // knowing the values: one ZCOUNT per topic on the (topic, score) composite index
        const pipeline = raw.multi();
        for (const topic of topics) pipeline.zCount(`${base}:idx:score@topic:${topic}`, 100, 200);
        const counts = (await pipeline.execAsPipeline()) as unknown as number[];
        return Object.fromEntries(topics.map((topic, t) => [topic, Number(counts[t])]).filter(([, n]) => n !== 0));
      },
      same: (a, b) => equalJson(Object.entries(a as object).sort(), Object.entries(b as object).sort()),
    },
  ];
}

async function checkState(workload: KindWorkload): Promise<void> {
  if (!workload.state) return;
  const [record, hand] = [await workload.state.record(), await workload.state.hand()];
  check(
    JSON.stringify(record) === JSON.stringify(hand),
    `${workload.label}: redis-record and the hand-written commands left different data`,
  );
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - began) / 1e6;
}

/** Times each workload against its hand-written commands, alternately, `reps` times each; prints the ratios. */
export async function measureKinds(
  workloads: readonly KindWorkload[],
  reps: number,
): Promise<Array<{ label: string; recordMs: number; handMs: number; ratio: number }>> {
  const rows = [];
  for (const workload of workloads) {
    check(
      workload.same(await workload.record(), await workload.hand()),
      `${workload.label}: redis-record and the hand-written commands differ`,
    );
    await checkState(workload);
    const record: number[] = [];
    const hand: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const first = rep % 2 === 0 ? [workload.record, workload.hand] : [workload.hand, workload.record];
      for (const run of first) (run === workload.record ? record : hand).push(await timed(run));
    }
    await checkState(workload);
    const recordMs = median(record);
    const handMs = median(hand);
    rows.push({ label: workload.label, recordMs, handMs, ratio: recordMs / handMs });
  }
  console.log('');
  printTable(
    ['query', 'redis-record median (ms)', 'hand-written median (ms)', 'redis-record / hand-written'],
    ['left', 'right', 'right', 'right'],
    rows.map((row) => [row.label, row.recordMs.toFixed(3), row.handMs.toFixed(3), `${row.ratio.toFixed(1)}x`]),
  );
  return rows;
}

import { median } from '../support/measure';
import { Expected, QUERIES, QueryKey, QueryLibrary, QueryPost } from './query-data';

/**
 * The query workload of bench/query.ts, side by side: at each size (reached by loading more posts on top of
 * the previous size) every query runs on each library alternately, the order flipping each round, `reps`
 * times each or fewer once a library has spent `budgetSeconds` on it (never fewer than MIN_REPS). Every answer
 * is checked against the data.
 */
export interface QueryStats {
  reps: number;
  medianMs: number;
  p95Ms: number;
}

export interface QuerySizeResult {
  size: number;
  load: Array<{ library: string; postsPerSecond: number }>;
  queries: Array<{ key: QueryKey; query: string; results: Record<string, QueryStats> }>;
}

export interface QueryResult {
  sizes: QuerySizeResult[];
  reps: number;
  budgetSeconds: number;
}

const MIN_REPS = 5;
const WARMUP_REPS = 3;

function stats(samples: number[]): QueryStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
  return { reps: sorted.length, medianMs: median(sorted), p95Ms: p95 };
}

async function timedMs(run: () => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - began) / 1e6;
}

async function measure(libraries: readonly QueryLibrary[], key: QueryKey, expected: Expected, reps: number, budgetMs: number) {
  for (const library of libraries) for (let rep = 0; rep < WARMUP_REPS; rep++) await library.query(key, rep, expected);
  const samples: number[][] = libraries.map(() => []);
  const spent = libraries.map(() => 0);
  const done = (which: number) => samples[which].length >= reps || (samples[which].length >= MIN_REPS && spent[which] >= budgetMs);
  for (let round = 0; !libraries.every((_, which) => done(which)); round++) {
    const order = libraries.map((_, which) => which);
    if (round % 2 === 1) order.reverse();
    for (const which of order) {
      if (done(which)) continue;
      const ms = await timedMs(() => libraries[which].query(key, round, expected));
      samples[which].push(ms);
      spent[which] += ms;
    }
  }
  return samples.map(stats);
}

export async function queryWorkload(
  libraries: readonly QueryLibrary[],
  posts: readonly QueryPost[],
  options: { sizes: readonly number[]; reps: number; budgetSeconds: number; log: (line: string) => void },
): Promise<QueryResult> {
  const sizes: QuerySizeResult[] = [];
  let loaded = 0;
  for (const size of options.sizes) {
    const load: QuerySizeResult['load'] = [];
    for (const library of libraries) {
      const ms = await timedMs(() => library.load(posts, loaded, size));
      load.push({ library: library.label, postsPerSecond: (size - loaded) / (ms / 1000) });
      options.log(`query workload: ${library.label} loaded posts ${loaded}..${size} in ${(ms / 1000).toFixed(1)} s`);
    }
    loaded = size;
    const expected = new Expected(posts, size);
    const queries: QuerySizeResult['queries'] = [];
    for (const { key, label } of QUERIES) {
      const measured = await measure(libraries, key, expected, options.reps, options.budgetSeconds * 1000);
      queries.push({ key, query: label, results: Object.fromEntries(libraries.map((library, which) => [library.label, measured[which]])) });
      options.log(
        `query workload ${size}: ${label}: ${libraries.map((l, w) => `${l.label} ${measured[w].medianMs.toFixed(2)} ms`).join(', ')}`,
      );
    }
    sizes.push({ size, load, queries });
  }
  return { sizes, reps: options.reps, budgetSeconds: options.budgetSeconds };
}

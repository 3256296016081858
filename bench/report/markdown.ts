import { PEER_NAMES } from '../peers/peer';
import type { BulkFigure } from '../workloads/bulk-create';
import type { TableOneResult } from '../workloads/table-one';
import { integer, markdownTable, milliseconds, times } from './format';
import { describeFreshPage } from '../support/fresh-page-cost';
import type { Machine } from './machine';
import type { SuiteResults } from './results';

const DASH = '–';

function tableOneSection(title: string, explanation: string, table: TableOneResult): string[] {
  const peers = PEER_NAMES.filter((name) => table.operations.some((row) => row.results[name]));
  const compared = peers.filter((name) => name !== 'redis-record');
  const rows = table.operations.map((row) => {
    const record = row.results['redis-record'];
    return [
      row.operation,
      ...peers.map((name) => (row.results[name] ? integer(row.results[name]!.opsPerSecond) : DASH)),
      ...compared.map((name) => (record && row.results[name] ? times(record.opsPerSecond / row.results[name]!.opsPerSecond) : DASH)),
    ];
  });
  return [
    `## ${title}`,
    '',
    explanation,
    '',
    ...markdownTable(
      ['operation', ...peers.map((name) => `${name} (ops/s)`), ...compared.map((name) => `redis-record vs ${name}`)],
      ['left', ...peers.map(() => 'right' as const), ...compared.map(() => 'right' as const)],
      rows,
    ),
    '',
  ];
}

function bulkSection(results: SuiteResults): string[] {
  const { bulk } = results;
  const record = bulk.results['redis-record'];
  const { reference } = bulk;
  const rows: Array<{ name: string; result: BulkFigure }> = PEER_NAMES.filter((name) => bulk.results[name]).map((name) => ({
    name,
    result: bulk.results[name]!,
  }));
  if (reference) rows.push({ name: reference.name, result: reference });
  return [
    `## Bulk create of ${integer(bulk.n)} posts`,
    '',
    `Each library writes the ${integer(bulk.n)} posts (those of Table I: content 50..2,000 characters, two indexed attributes) ` +
      'its fastest way on an empty database, building its objects inside the timing; the time ends when every ' +
      'write is acknowledged. Each library runs in a Node.js process of its own, so that none inherits the heap, the ' +
      "compiled code or V8's allocation decisions another one left behind. " +
      `Median of ${bulk.reps} repetition(s), the order of the libraries rotating, after one ` +
      `unmeasured run of ${integer(bulk.warmup)} posts per library (a process's first bulk load also pays for its heap growing and its code being compiled). ` +
      'Each run starts after `FLUSHDB SYNC`, after which Redis hands the memory it freed back to the kernel: every run also ' +
      "pays for Redis taking that memory again (the suite's log gives each run's page faults; docs/bulk-operations.md says what they cost).",
    '',
    ...markdownTable(
      ['library', 'how', 'posts/s', 'seconds', 'redis-record vs it'],
      ['left', 'left', 'right', 'right', 'right'],
      rows.map(({ name, result }) => [
        name,
        result.method,
        integer(result.objectsPerSecond),
        result.seconds.toFixed(2),
        name === 'redis-record' || !record ? DASH : times(record.objectsPerSecond / result.objectsPerSecond),
      ]),
    ),
    '',
    ...(reference && record
      ? [
          `*${reference.name}* is not a library: node-redis alone sending the very commands saveMany sends for these posts, ` +
            'built from the posts chunk by chunk inside the timing, as saveMany builds them, but with no entity, state or ' +
            'snapshot per post (bench/peers/transport-reference.ts). It takes its turns in the rotation like the libraries, so ' +
            'it measures what these atomic writes can get through node-redis on this machine in this run; what saveMany ' +
            `falls short of it is the cost of its instances ([Where the time goes](bulk-operations.md#where-the-time-goes)): saveMany reached ${Math.round((100 * record.objectsPerSecond) / reference.objectsPerSecond)}% of it ` +
            `(runs: saveMany ${record.runs.map((seconds) => integer(bulk.n / seconds)).join(', ')}; ` +
            `reference ${reference.runs.map((seconds) => integer(bulk.n / seconds)).join(', ')} posts/s).`,
          '',
        ]
      : []),
  ];
}

function querySection(results: SuiteResults): string[] {
  const { query } = results;
  const lines = [
    '## Queries (redis-record, hand-written node-redis, nohm)',
    '',
    'The workload of bench/query.ts: posts with topic (10 values), score (0..999), authorId (500 values) and ' +
      'createdAt; each query answered the way each library offers (the hand-written code reads the same kind of indexes ' +
      'redis-record keeps, then one MULTI of HGETALLs), every answer checked. Median and 95th percentile of up to ' +
      `${query.reps} runs (at least 5, fewer once a library has spent ${query.budgetSeconds} s on a query). ` +
      'redis-om is left out: without RediSearch it has no query at all.',
    '',
  ];
  for (const size of query.sizes) {
    const libraries = PEER_NAMES.filter((name) => size.queries.some((row) => row.results[name]));
    const compared = libraries.filter((name) => name !== 'redis-record');
    lines.push(`### ${integer(size.size)} posts`, '');
    lines.push(
      `Loading: ${size.load.map((load) => `${load.library} ${integer(load.postsPerSecond)} posts/s`).join(', ')} (1,000 writes in flight).`,
      '',
    );
    lines.push(
      ...markdownTable(
        ['query', ...libraries.map((name) => `${name} median / p95 (ms)`), ...compared.map((name) => `redis-record vs ${name}`)],
        ['left', ...libraries.map(() => 'right' as const), ...compared.map(() => 'right' as const)],
        size.queries.map((row) => {
          const record = row.results['redis-record'];
          const cell = (stats?: { medianMs: number; p95Ms: number }) =>
            stats ? `${milliseconds(stats.medianMs)} / ${milliseconds(stats.p95Ms)}` : DASH;
          return [
            row.query,
            ...libraries.map((name) => cell(row.results[name])),
            ...compared.map((name) => (record && row.results[name] ? times(row.results[name].medianMs / record.medianMs) : DASH)),
          ];
        }),
      ),
      '',
    );
  }
  lines.push("Ratios here are of the medians: *redis-record vs X* = X's time / redis-record's (above 1: redis-record is faster).", '');
  return lines;
}

function memorySection(results: SuiteResults): string[] {
  const { memory } = results;
  const record = memory.results['redis-record'];
  return [
    '## Redis memory per post',
    '',
    `Each library alone on an empty database writes ${integer(memory.n)} posts. *used_memory* is INFO's used_memory after ` +
      "minus before, per post; *object* is MEMORY USAGE (SAMPLES 0) of one post's own key, the mean over a sample spread over " +
      'all posts; *id list and indexes* is MEMORY USAGE of every other key the library wrote, divided by the posts. ' +
      'redis-om keeps no id list and no index, so it stores less, and can answer nothing but a fetch by id.',
    '',
    ...markdownTable(
      [
        'library',
        'used_memory (bytes/post)',
        'object (bytes)',
        'id list and indexes (bytes/post)',
        'keys besides the objects',
        'redis-record used_memory / it',
      ],
      ['left', 'right', 'right', 'right', 'right', 'right'],
      PEER_NAMES.filter((name) => memory.results[name]).map((name) => {
        const result = memory.results[name]!;
        return [
          name,
          integer(result.usedMemoryPerObject),
          integer(result.objectBytes),
          integer(result.indexBytesPerObject),
          integer(result.indexKeys),
          name === 'redis-record' || !record ? DASH : (record.usedMemoryPerObject / result.usedMemoryPerObject).toFixed(2),
        ];
      }),
    ),
    '',
  ];
}

/** The machine's cost of a fresh page, at the start and the end of the run (fresh-page-cost.ts). */
function freshPage({ start, end }: NonNullable<Machine['freshPage']>): string {
  return (
    `${describeFreshPage(start)} per 4 KiB page at the start, ${describeFreshPage(end)} at the end: what a process waits for each page it touches for the first time ` +
    "(the suite's log gives the page faults of each bulk run; [bulk operations](bulk-operations.md#memory-redis-takes-back) says what they cost)"
  );
}

/** docs/benchmarks.md, entirely from `results`. */
export function renderMarkdown(results: SuiteResults): string {
  const { machine, tableOne } = results;
  const lines: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by bench/all.ts (`npm run bench`). Do not edit: every figure comes from docs/benchmarks/results.json of the same run. -->',
    '',
    `redis-record side by side with hand-written node-redis code, [nohm](https://github.com/maritz/nohm) and ` +
      `[redis-om](https://github.com/redis/redis-om-node) (hash storage), in one run, on the same seeded data and the same private ` +
      `redis-server. Generated ${results.generatedAt} by \`${results.command}\`${results.quick ? ' — **a quick smoke run: sizes too small for the figures to mean much**' : ''}.`,
    '',
    'To reproduce: `npm run bench` (the full suite: it starts its own redis-server on a free port and writes this page, ' +
      '`docs/benchmarks/results.json`, `docs/benchmarks/chart.svg` and the summary in README.md); ' +
      '`npm run bench -- --quick` for a smoke run with small sizes; `--out <dir>` to write the page, JSON and chart under another folder ' +
      '(README.md is then left alone). Run it on a quiet machine: the figures are medians, but other work on the machine still moves them (the load average below says how busy it was).',
    '',
    '![Throughput per library](benchmarks/chart.svg)',
    '',
    '## Machine and versions',
    '',
    ...markdownTable(
      ['', ''],
      ['left', 'left'],
      [
        ['CPU', `${machine.cpu}, ${machine.cores} cores`],
        ['RAM', `${machine.ramGiB} GiB`],
        ['OS', machine.os],
        [
          'Load average (1, 5, 15 min)',
          `${machine.loadAverage.start.join(', ')} at the start, ${machine.loadAverage.end.join(', ')} at the end`,
        ],
        ...(machine.freshPage ? [['A page of fresh memory', freshPage(machine.freshPage)]] : []),
        ['Node', machine.node],
        ['Server', `${machine.server} (a private redis-server, no persistence)`],
        ...results.peers.map((peer) => [peer.name, peer.name === 'hand-written' ? `node-redis ${peer.version}` : peer.version]),
      ],
    ),
    '',
    '## Targets',
    '',
    ...markdownTable(
      ['target', 'measured', 'met'],
      ['left', 'right', 'center'],
      results.targets.map((target) => [target.target, target.measured, target.met ? 'yes' : '**no**']),
    ),
    '',
    "Ratios are throughputs: *redis-record vs X* = redis-record's operations per second / X's (above 1: redis-record is faster).",
    '',
    'What bounds the bulk targets and the sequential ones, measured: [Where the 8x target stands](bulk-operations.md#where-the-8x-target-stands) ' +
      'and [One operation at a time](bulk-operations.md#one-operation-at-a-time-the-round-trip), in the guide to bulk operations.',
    '',
    ...tableOneSection(
      `Table I, sequential: ${integer(tableOne.sequential.n)} posts, one operation at a time`,
      "The workload of the ActiveRedis paper's Table I: create, count, load, update (the content) and delete of each post, " +
        'each operation awaited before the next. Each library runs in a Node.js process of its own, which times its blocks, ' +
        'so that none pays for collecting what another allocates and keeps; they take turns in blocks of ' +
        `${tableOne.sequential.block} operations, the order rotating; median of ${tableOne.sequential.reps} repetition(s). ` +
        'count runs once per post. Posts: author 5..20 characters, topic (20 values, indexed), content 50..2,000 characters, createdAt (indexed).',
      tableOne.sequential,
    ),
    ...tableOneSection(
      `Table I, concurrent: ${integer(tableOne.concurrent.n)} posts, ${tableOne.concurrent.concurrency} operations in flight`,
      `The same workload with ${tableOne.concurrent.concurrency} operations in flight per library (blocks of ${tableOne.concurrent.block}, ` +
        `median of ${tableOne.concurrent.reps}).`,
      tableOne.concurrent,
    ),
    ...bulkSection(results),
    ...querySection(results),
    ...memorySection(results),
    '## What each library does here',
    '',
    ...results.peers.map(
      (peer) => `- **${peer.name}** (${peer.name === 'hand-written' ? 'node-redis ' : ''}${peer.version}): ${peer.notes}.`,
    ),
    '',
    'redis-om takes no part in count (it has none without RediSearch) and writes no index entries, which makes its writes ' +
      'cheaper than those of the three libraries that keep topic and createdAt indexed. The hand-written code is what a careful ' +
      'programmer sends without a library, on the same key layout; unlike redis-record it checks no type, runs no validation or ' +
      'hook, and its remove trusts the topic it loaded.',
    '',
  ];
  return lines.join('\n');
}

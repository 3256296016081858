import { readFileSync, writeFileSync } from 'fs';
import { PEER_NAMES, PeerName } from '../peers/peer';
import { integer, markdownTable, milliseconds } from './format';
import type { SuiteResults } from './results';

export const START_MARKER = '<!-- bench:start -->';
export const END_MARKER = '<!-- bench:end -->';
const DASH = '–';

/** The short table README.md shows between its markers. */
export function renderSummary(results: SuiteResults): string {
  const cells = (value: (name: PeerName) => number | undefined, format = integer) =>
    PEER_NAMES.map((name) => {
      const figure = value(name);
      return figure === undefined ? DASH : format(figure);
    });
  const seq = (operation: string) => results.tableOne.sequential.operations.find((row) => row.operation === operation)!;
  const conc = results.tableOne.concurrent.operations.find((row) => row.operation === 'create')!;
  const largest = results.query.sizes[results.query.sizes.length - 1];
  const q2 = largest?.queries.find((row) => row.key === 'Q2');
  const rows: string[][] = [
    ...['create', 'load', 'update', 'delete'].map((operation) => [
      `${operation}, one at a time (ops/s)`,
      ...cells((name) => seq(operation).results[name]?.opsPerSecond),
    ]),
    [`create, ${results.tableOne.concurrent.concurrency} in flight (ops/s)`, ...cells((name) => conc.results[name]?.opsPerSecond)],
    [`bulk create of ${integer(results.bulk.n)} (posts/s)`, ...cells((name) => results.bulk.results[name]?.objectsPerSecond)],
    ...(q2 && largest
      ? [
          [
            `query: topic AND score range, objects, ${integer(largest.size)} posts (median ms)`,
            ...cells((name) => q2.results[name]?.medianMs, milliseconds),
          ],
        ]
      : []),
    ['Redis memory per post (bytes, used_memory)', ...cells((name) => results.memory.results[name]?.usedMemoryPerObject)],
  ];
  const met = results.targets.filter((target) => target.met).length;
  return [
    `Measured by \`npm run bench\` on ${results.machine.cpu} (${results.machine.cores} cores), Node ${results.machine.node}, ` +
      `${results.machine.server}, ${results.generatedAt.slice(0, 10)}; posts with two indexed attributes. ` +
      'redis-om (hash storage, no RediSearch) keeps no index and has no query.',
    '',
    ...markdownTable(['', ...PEER_NAMES], ['left', ...PEER_NAMES.map(() => 'right' as const)], rows),
    '',
    `Speed targets met in this run: ${met} of ${results.targets.length} ([which](docs/benchmarks.md#targets)).`,
  ].join('\n');
}

/** Replaces what is between README's markers; the rest of the file is left as it is. False when the markers are missing. */
export function updateReadme(file: string, summary: string): boolean {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start < 0 || end < start) return false;
  writeFileSync(file, `${text.slice(0, start + START_MARKER.length)}\n${summary}\n${text.slice(end)}`);
  return true;
}

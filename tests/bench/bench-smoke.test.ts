import { BenchRun, runBenchScript } from './run-bench-script';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { renderSummary } from '../../bench/report/readme-summary';
import type { SuiteResults } from '../../bench/report/results';
import { transpileWorkers, TranspiledWorkers } from '../support/worker-processes/transpile';

/**
 * The benchmark suite's smoke run: `bench/all.ts --quick --out <temp dir>` as a child process (on its own
 * private redis-server, never the tests' one: it empties its database), then the page, the JSON and the chart
 * it wrote are checked against each other. Figures are not judged here: speed is the benchmarks' business.
 */
const PEERS = ['redis-record', 'hand-written', 'nohm', 'redis-om'];

let compiled: TranspiledWorkers;
let out: string;
let run: BenchRun;
let results: SuiteResults;
let page: string;
let chart: string;

beforeAll(async () => {
  compiled = transpileWorkers('bench-smoke', ['bench', 'tools']);
  out = mkdtempSync(join(tmpdir(), 'redis-record-bench-'));
  run = await runBenchScript(compiled, 'bench/all.ts', ['--quick', '--out', out], 300_000);
  const { code } = run;
  if (code === 0) {
    results = JSON.parse(readFileSync(join(out, 'benchmarks', 'results.json'), 'utf8')) as SuiteResults;
    page = readFileSync(join(out, 'benchmarks.md'), 'utf8');
    chart = readFileSync(join(out, 'benchmarks', 'chart.svg'), 'utf8');
  }
}, 330_000);

afterAll(() => {
  compiled?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

test('the quick run exits 0 and writes the page, the JSON and the chart under --out only', () => {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(existsSync(join(out, 'benchmarks.md'))).toBe(true);
  expect(run.stdout).not.toMatch(/README/);
});

test('the JSON holds every workload for every library, with the machine and versions', () => {
  expect(results.quick).toBe(true);
  expect(results.peers.map((peer) => peer.name)).toEqual(PEERS);
  for (const peer of results.peers) expect(peer.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(results.machine.cores).toBeGreaterThan(0);
  expect(results.machine.server).toMatch(/^(Redis|Valkey) \d+\.\d+/);
  expect(results.machine.node).toBe(process.version);
  // the cost of a fresh page, at the start and the end: a positive time, or null where faults are not counted
  for (const micros of [results.machine.freshPage!.start, results.machine.freshPage!.end]) {
    if (micros !== null) expect(micros).toBeGreaterThan(0);
  }
  for (const table of [results.tableOne.sequential, results.tableOne.concurrent]) {
    expect(table.operations.map((row) => row.operation)).toEqual(['create', 'count', 'load', 'update', 'delete']);
    for (const row of table.operations) {
      // redis-om has no count without RediSearch; every other cell is a measured rate.
      const expected = row.operation === 'count' ? PEERS.filter((name) => name !== 'redis-om') : PEERS;
      expect(Object.keys(row.results).sort()).toEqual([...expected].sort());
      for (const timing of Object.values(row.results)) {
        expect(timing!.opsPerSecond).toBeCloseTo(table.n / timing!.seconds, 6);
      }
    }
  }
  expect(Object.keys(results.bulk.results).sort()).toEqual([...PEERS].sort());
  expect(Object.keys(results.memory.results).sort()).toEqual([...PEERS].sort());
  expect(results.memory.results['redis-om']!.indexKeys).toBe(0);
  expect(results.memory.results['redis-record']!.indexKeys).toBeGreaterThan(0);
  expect(results.query.sizes.map((size) => size.size)).toEqual([1000]);
  for (const row of results.query.sizes[0].queries)
    expect(Object.keys(row.results).sort()).toEqual(['hand-written', 'nohm', 'redis-record']);
  expect(results.targets.length).toBe(5);
});

test('the page shows the figures of the JSON: rates, ratios and the targets as judged', () => {
  const create = results.tableOne.sequential.operations[0].results;
  const ratio = create['redis-record']!.opsPerSecond / create.nohm!.opsPerSecond;
  const createRow = page.split('\n').find((line) => line.startsWith('| create |'))!;
  expect(createRow).toContain(`| ${integer(create['redis-record']!.opsPerSecond)} |`);
  expect(createRow).toContain(`| ${integer(create.nohm!.opsPerSecond)} |`);
  expect(createRow).toContain(ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2));
  for (const target of results.targets) {
    expect(page).toContain(`| ${target.target} | ${target.measured} | ${target.met ? 'yes' : '**no**'} |`);
  }
  const bulk = results.bulk.results['redis-record']!;
  expect(results.targets[0].met).toBe(bulk.objectsPerSecond >= 100_000);
  expect(page).toContain(results.machine.cpu);
  expect(page).toContain('npm run bench');
  expect(page).toContain(`| Server | ${results.machine.server} (a private redis-server`);
  expect(page).toMatch(/\| A page of fresh memory \| (\d+(\.\d+)? us|not measurable) per 4 KiB page at the start, /);
});

test('the bulk section and the bulk targets show what node-redis alone carried for the same writes', () => {
  const row = (name: string) => page.split('\n').find((line) => line.startsWith(`| ${name} |`))!;
  const reference = results.bulk.reference!;
  const record = results.bulk.results['redis-record']!;
  expect(reference.name).toBe('node-redis transport (reference)');
  // it builds its commands as saveMany does, inside the timing (bulk-cpu.ts alone times them built before)
  expect(reference.method).toContain('built from the posts inside the timing');
  expect(row(reference.name)).toContain('built from the posts inside the timing');
  expect(reference.runs).toHaveLength(results.bulk.reps);
  expect(reference.objectsPerSecond).toBeCloseTo(results.bulk.n / reference.seconds, 6);
  expect(row(reference.name)).toContain(`| ${integer(reference.objectsPerSecond)} |`);
  expect(page).toContain(`saveMany reached ${Math.round((100 * record.objectsPerSecond) / reference.objectsPerSecond)}% of it`);
  expect(results.targets[0].measured).toBe(
    `${integer(record.objectsPerSecond)}/s; node-redis alone: ${integer(reference.objectsPerSecond)}/s`,
  );
  expect(results.targets[1].measured).toMatch(/; node-redis alone: \d+\.\dx$/);
});

test("each bulk run's log line counts the writer's page faults and its private Redis's", () => {
  const lines = run.stderr.split('\n').filter((line) => line.startsWith('bulk create '));
  // every writer (the four libraries and the reference) once per repetition
  expect(lines).toHaveLength(results.bulk.reps * (PEERS.length + 1));
  for (const line of lines) expect(line).toMatch(/, page faults per 1,000 posts: its \d+, Redis's \d+$/);
});

test('the chart has a bar per library and measured operation, labelled with the JSON figures', () => {
  expect(chart.startsWith('<svg')).toBe(true);
  // Table I: 5 operations x 2 modes, plus bulk create; redis-om has no count bar in either mode.
  expect(chart.match(/<title>redis-record:/g)).toHaveLength(11);
  expect(chart.match(/<title>redis-om:/g)).toHaveLength(9);
  expect(chart).toContain(`<title>nohm: ${integer(results.bulk.results.nohm!.objectsPerSecond)}/s</title>`);
});

test("README's summary is made from the same figures", () => {
  const summary = renderSummary(results);
  const bulkRow = summary.split('\n').find((line) => line.startsWith('| bulk create'))!;
  for (const name of PEERS) expect(bulkRow).toContain(`| ${integer(results.bulk.results[name as 'nohm']!.objectsPerSecond)}`);
  const met = results.targets.filter((target) => target.met).length;
  expect(summary).toContain(`${met} of ${results.targets.length}`);
});

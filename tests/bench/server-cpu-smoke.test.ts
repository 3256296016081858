import { BenchRun, runBenchScript } from './run-bench-script';
import { transpileWorkers, TranspiledWorkers } from '../support/worker-processes/transpile';

/**
 * The server-CPU benchmark's smoke run: `bench/server-cpu.ts --n 50` as a child process (on its own private
 * redis-server, never the tests' one), then its tables are read. Figures are not judged here: speed is the
 * benchmarks' business. The benchmark checks its own answers (every object stored, moved and removed).
 */

let compiled: TranspiledWorkers;
let run: BenchRun;

beforeAll(async () => {
  compiled = transpileWorkers('server-cpu-smoke', ['bench', 'tools']);
  run = await runBenchScript(compiled, 'bench/server-cpu.ts', ['--n', '50'], 50_000);
}, 60_000);

afterAll(() => compiled?.remove());

/** The line of `name` in the `table`-th block of the output (blocks are separated by an empty line). */
function row(name: string, table: number): string | undefined {
  const blocks = run.stdout.split('\n\n');
  return blocks[table]?.split('\n').find((line) => line.startsWith(`| ${name} |`));
}

test('the run exits 0 and prints a ratio to hand-written code per write', () => {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout).toContain('50 objects with two indexed attributes');
  for (const operation of ['create', 'update', 'remove']) {
    // operation, the three writers' usec, then redis-record / hand-written and floor / hand-written
    expect(row(operation, 1)).toMatch(/^\| \w+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \d+\.\d\d \| \d+\.\d\d \|$/);
  }
});

test("each single-object operation's latency is printed as a ratio to a PING", () => {
  for (const operation of ['create', 'load', 'update', 'remove']) expect(row(operation, 3)).toMatch(/^\| \w+ \| \d+\.\d\d \|$/);
});

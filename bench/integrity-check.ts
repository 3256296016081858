/**
 * What `Model.check()` costs per object, against reading every object once: N objects of a model with an index
 * of each kind (set, score, sortable lex, unique), stored with saveMany (not timed), then two ways, taking turns
 * each round (the first round not counted):
 *
 * - `check()`: the whole check, in batches of `--batch` objects: every object's hash and its entries, every
 *   index key's members, the `exp` entries and TTLs;
 * - `findMany of every id`: each object's hash read once (one HGETALL each, in one transaction), with the ids
 *   listed first: less than any check must read, the baseline.
 *
 * Per way: wall time, this process's CPU and Redis's main thread's (INFO cpu), and the commands Redis ran
 * (INFO commandstats), each per object, medians of the counted rounds, with check()'s ratio to the baseline.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/integrity-check.ts [--n=20000] [--rounds=4] [--batch=300]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../src';
import { positiveInteger } from './support/args';
import { runBenchSession } from './support/bench-session';
import { CallCost, callCosts, commandTimes } from './support/call-costs';
import { check, median } from './support/measure';
import { printTable } from './support/table';

const N = positiveInteger('n', 'N', 20_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 4);
const BATCH = positiveInteger('batch', 'BATCH', 300);

/** An index of each kind, as tests/integrity/large-model.test.ts checks them. */
@Model({ name: 'CheckedItem' })
class CheckedItem extends BaseEntity {
  @Attr({ type: 'string' }) @Index() group?: string;
  @Attr({ type: 'number' }) @Index() rank?: number;
  @Attr({ type: 'string' }) @Index({ sortable: true }) name?: SortableString;
  @Attr({ type: 'string' }) @Unique() code?: string;
}

/** A run's costs per object, with the commands Redis ran per object. */
type Run = CallCost & { commands: number };

runBenchSession('integritycheck', async ({ raw }) => {
  const items = Array.from({ length: N }, (_, n) => ({ group: `g${n % 50}`, rank: n, name: `n${n}` as SortableString, code: `c${n}` }));
  const stored = await CheckedItem.saveMany(items);
  check(stored.ok, `saveMany failed for ${stored.failed.length} items`);
  const ways: Record<string, () => Promise<void>> = {
    'check()': async () => {
      const result = await CheckedItem.check({ batchSize: BATCH });
      check(result.ok && result.objects === N, `check(): ${result.violations.length} violations, ${result.objects} objects`);
    },
    'findMany of every id': async () => {
      const found = await CheckedItem.findMany(await CheckedItem.findIds());
      check(found.length === N, `findMany found ${found.length} objects`);
    },
  };
  const names = Object.keys(ways);
  console.log(
    `${N.toLocaleString('en-US')} objects with a set, a score, a sortable and a unique index; check() in batches of ${BATCH}; ${ROUNDS} rounds (the first not counted)`,
  );
  const runs = new Map<string, Run[]>(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      const before = await commandTimes(raw);
      const cost = await callCosts(raw, N, ways[name]);
      const after = await commandTimes(raw);
      // INFO's own calls (two between the readings) are not the way's
      const calls = (times: typeof before) =>
        [...times.entries()].filter(([command]) => command !== 'info').reduce((sum, [, { calls }]) => sum + calls, 0);
      const run: Run = { ...cost, commands: (calls(after) - calls(before)) / N };
      if (round === 0) continue;
      runs.get(name)!.push(run);
      console.log(
        `  round ${round}: ${name}: ${run.wall.toFixed(1)} us wall, client ${run.cpu.toFixed(1)} us, Redis ${run.redis.toFixed(1)} us, ${run.commands.toFixed(2)} commands per object`,
      );
    }
  }
  const med = (name: string, part: keyof Run) => median(runs.get(name)!.map((run) => run[part]));
  const us = (value: number) => `${value.toFixed(1)} us`;
  const base = names[1];
  const columns: Array<[string, (name: string) => string]> = [
    ['wall per object', (name) => us(med(name, 'wall'))],
    ['client CPU', (name) => us(med(name, 'cpu'))],
    ['Redis CPU', (name) => us(med(name, 'redis'))],
    ['commands per object', (name) => med(name, 'commands').toFixed(2)],
    ['wall against the baseline', (name) => `${(med(name, 'wall') / med(base, 'wall')).toFixed(2)}x`],
  ];
  console.log('');
  printTable(
    ['way', ...columns.map(([title]) => title)],
    ['left', ...columns.map(() => 'right' as const)],
    names.map((name) => [name, ...columns.map(([, cell]) => cell(name))]),
  );
});

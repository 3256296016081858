import { CrashItem, stateOfItem } from '../support/crash/crash-item';
import { keysUnder, RawClient, useTestRedis } from '../support/test-redis';
import { useWorkerProcesses } from '../support/worker-processes/use-workers';
import { killMidRun } from '../support/worker-processes/kill-mid-run';

/**
 * A writer killed with SIGKILL at random instants, over and over, never leaves the store inconsistent and
 * never loses an acknowledged write. The worker (tests/support/crash/crash-worker.ts) runs random creates,
 * updates and removes as fast as it can and reports each operation before it is sent and once it is
 * acknowledged; after every kill the keys are checked with a raw client.
 */

/** Kills, each after a random time of writing: a set number, so that a loaded machine runs the same test. */
const KILLS = 6;
const ABSENT = '<absent>';

const redis = useTestRedis();

/** What the test knows of one object: its state at the last check or acknowledgement, and states an unacknowledged write may have left. */
interface Expected {
  confirmed: string;
  possible: Set<string>;
  lastUpdate?: string;
}

/** Replays the worker's reports of one run into `expected`; returns the states of creates sent but not acknowledged. */
function replay(lines: string[], expected: Map<string, Expected>, violations: string[], counts: Record<string, number>) {
  const pendingCreates: string[] = [];
  const entry = (id: string): Expected | undefined => {
    const found = expected.get(id);
    if (!found) violations.push(`the worker touched ${id}, which the test never saw`);
    return found;
  };
  for (const line of lines) {
    const kind = line[0];
    const rest = line.slice(2);
    const space = rest.indexOf(' ');
    const id = space < 0 ? rest : rest.slice(0, space);
    const json = space < 0 ? '' : rest.slice(space + 1);
    switch (kind) {
      case 'c':
        pendingCreates.push(rest);
        break;
      case 'C': {
        const at = pendingCreates.indexOf(json);
        if (at >= 0) pendingCreates.splice(at, 1);
        if (expected.has(id)) violations.push(`create acknowledged id ${id} twice`);
        expected.set(id, { confirmed: json, possible: new Set() });
        counts.creates++;
        break;
      }
      case 'u': {
        const known = entry(id);
        if (known) {
          known.possible.add(json);
          known.lastUpdate = json;
        }
        break;
      }
      case 'U': {
        const known = entry(id);
        if (known) {
          known.confirmed = known.lastUpdate!;
          known.possible.clear();
        }
        counts.updates++;
        break;
      }
      case 'r':
        entry(id)?.possible.add(ABSENT);
        break;
      case 'R': {
        const known = entry(id);
        if (known) {
          known.confirmed = ABSENT;
          known.possible.clear();
        }
        counts.removes++;
        break;
      }
      case 'E':
        violations.push(`worker: ${rest}`);
        break;
      default:
        violations.push(`unreadable worker line: ${line.slice(0, 80)}`);
    }
  }
  return pendingCreates;
}

/** The key-level invariants, read with the raw client; returns the live ids. */
async function checkKeys(raw: RawClient, violations: string[], round: number): Promise<string[]> {
  const base = `${redis.prefix}:{CrashItem}`;
  const objectPrefix = `${base}:obj:`;
  const keys = await keysUnder(raw, redis.prefix);
  const hashIds = new Set<string>();
  for (const key of keys) {
    if (key.startsWith(objectPrefix)) hashIds.add(key.slice(objectPrefix.length));
    else if (key !== `${base}:seq` && key !== `${base}:all`) violations.push(`round ${round}: unexpected key ${key}`);
  }
  const members = await raw.zRangeWithScores(`${base}:all`, 0, -1);
  const allIds = new Set(members.map((m) => m.value));
  for (const { value: id, score } of members) {
    if (!hashIds.has(id)) violations.push(`round ${round}: ${id} is in all but has no hash`);
    if (score !== Number(id)) violations.push(`round ${round}: ${id} has score ${score} in all`);
  }
  const ids = [...hashIds];
  const storedIds = await Promise.all(ids.map((id) => raw.hGet(objectPrefix + id, '#id')));
  ids.forEach((id, i) => {
    if (!allIds.has(id)) violations.push(`round ${round}: hash of ${id} is not in all`);
    if (storedIds[i] !== id) violations.push(`round ${round}: hash of ${id} holds #id ${storedIds[i]}`);
  });
  const sequence = Number((await raw.get(`${base}:seq`)) ?? 0);
  const largest = Math.max(0, ...[...allIds, ...hashIds].map(Number));
  if (sequence < largest) violations.push(`round ${round}: sequence ${sequence} < largest id ${largest}`);
  return [...allIds];
}

/** Every object is in a state the worker's reports allow: acknowledged writes are there, unacknowledged ones all or nothing. */
async function checkStates(
  liveIds: string[],
  expected: Map<string, Expected>,
  pendingCreates: string[],
  violations: string[],
  round: number,
): Promise<void> {
  const ids = [...new Set([...expected.keys(), ...liveIds])];
  const loaded = await CrashItem.findMany(ids);
  ids.forEach((id, i) => {
    const item = loaded[i];
    const observed = item ? stateOfItem(item) : ABSENT;
    const known = expected.get(id);
    if (!known) {
      const at = pendingCreates.indexOf(observed);
      if (at < 0) violations.push(`round ${round}: ${id} exists with ${observed}, which no create sent`);
      else pendingCreates.splice(at, 1);
    } else if (observed !== known.confirmed && !known.possible.has(observed)) {
      const what =
        known.confirmed === ABSENT ? 'acknowledged remove undone' : observed === ABSENT ? 'acknowledged object lost' : 'unexpected state';
      violations.push(
        `round ${round}: ${id}: ${what}: found ${observed}, expected ${known.confirmed} or one of [${[...known.possible].join(', ')}]`,
      );
    }
    // Start the next run from what is stored.
    if (observed === ABSENT) expected.delete(id);
    else expected.set(id, { confirmed: observed, possible: new Set() });
  });
}

describe('a writer killed at random instants', () => {
  // Each start costs a Node startup, not a TypeScript compiler load; a worker still running at the end is killed.
  const crashWorkers = useWorkerProcesses(redis, 'crash', 'tests/support/crash/crash-worker.ts');

  it('leaves every invariant true and loses no acknowledged write', async () => {
    const clientName = `crash-worker-${redis.prefix}`;
    const expected = new Map<string, Expected>();
    const violations: string[] = [];
    const counts = { creates: 0, updates: 0, removes: 0 };
    const started = Date.now();
    let kills = 0;
    while (kills < KILLS) {
      const worker = crashWorkers.start({ WORKER_CLIENT_NAME: clientName });
      await killMidRun(worker, { name: 'crash worker', raw: redis.raw, clientName, runMs: [100, 400] });
      kills++;
      const pendingCreates = replay(worker.lines, expected, violations, counts);
      const liveIds = await checkKeys(redis.raw, violations, kills);
      await checkStates(liveIds, expected, pendingCreates, violations, kills);
    }
    const operations = counts.creates + counts.updates + counts.removes;
    process.stdout.write(
      `crash test: ${operations} acknowledged operations (${counts.creates} creates, ${counts.updates} updates, ` +
        `${counts.removes} removes), ${kills} kills in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
        `${violations.length} violations\n`,
    );
    expect(violations.slice(0, 20)).toEqual([]);
    expect(operations).toBeGreaterThan(0);
  }, 180_000);
});

import { BULK_CRASH_BATCH, BULK_CRASH_CHUNK, bulkCrashAttributes, BulkCrashItem } from '../support/bulk-crash/bulk-crash-item';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { useWorkerProcesses } from '../support/worker-processes/use-workers';
import { killMidRun } from '../support/worker-processes/kill-mid-run';

/**
 * A process writing with saveMany, killed with SIGKILL at random instants, over and over: every invariant holds
 * after each kill, every acknowledged call is stored whole, and of the call in flight Redis holds whole chunks
 * only, the first ones in order (one MULTI per chunk, applied in the order sent on one connection). The worker
 * is tests/support/bulk-crash/bulk-crash-worker.ts.
 */

/** Kills, each after a random time of writing: a set number, so that a loaded machine runs the same test. */
const KILLS = 5;

const redis = useTestRedis();

describe('a saveMany writer killed at random instants', () => {
  const workers = useWorkerProcesses(redis, 'bulk-crash', 'tests/support/bulk-crash/bulk-crash-worker.ts');

  it('leaves every invariant true, acknowledged calls whole, and whole chunks of the call in flight', async () => {
    const clientName = `bulk-crash-worker-${redis.prefix}`;
    const base = `${redis.prefix}:{BulkCrashItem}`;
    const violations: string[] = [];
    const sent = new Set<number>();
    const acknowledged = new Map<number, number>();
    let kills = 0;
    let cutShort = 0;
    while (kills < KILLS) {
      const worker = workers.start({ WORKER_CLIENT_NAME: clientName, WORKER_FIRST_CALL: String(kills * 100_000) });
      await killMidRun(worker, { name: 'bulk crash worker', raw: redis.raw, clientName, runMs: [100, 500] });
      kills++;
      for (const line of worker.lines) {
        const [kind, call, first] = line.split(' ');
        if (kind === 's') sent.add(Number(call));
        else if (kind === 'S') acknowledged.set(Number(call), Number(first));
        else violations.push(`worker: ${line.slice(0, 200)}`);
      }

      // invariants 1 to 4 (all, hashes, index entries), exactly
      await expectIndexesConsistent(BulkCrashItem, redis.raw, redis.prefix);
      // invariant 5: the sequence is at least the largest id
      const ids = await redis.raw.zRange(`${base}:all`, 0, -1);
      const sequence = Number((await redis.raw.get(`${base}:seq`)) ?? 0);
      if (sequence < Math.max(0, ...ids.map(Number))) violations.push(`kill ${kills}: sequence ${sequence} below the largest id`);

      // every object whole, as its call wrote it; per call, which positions are stored
      const positions = new Map<number, number[]>();
      const objects = await BulkCrashItem.findMany(ids);
      objects.forEach((object, i) => {
        if (!object) return violations.push(`kill ${kills}: ${ids[i]} is in all but cannot be loaded`);
        const { id, ...attributes } = object.toJSON();
        const expected = bulkCrashAttributes(object.call, object.pos);
        if (JSON.stringify(attributes) !== JSON.stringify(expected))
          violations.push(`kill ${kills}: ${id} holds ${JSON.stringify(attributes)}`);
        const first = acknowledged.get(object.call);
        if (first !== undefined && Number(id) !== first + object.pos)
          violations.push(`kill ${kills}: ${id} is item ${object.pos} of a call that began at ${first}`);
        if (!sent.has(object.call)) violations.push(`kill ${kills}: ${id} belongs to call ${object.call}, never sent`);
        positions.set(object.call, [...(positions.get(object.call) ?? []), object.pos]);
      });
      for (const call of sent) {
        const stored = (positions.get(call) ?? []).sort((a, b) => a - b);
        const prefixOfChunks =
          stored.every((pos, i) => pos === i) && (stored.length % BULK_CRASH_CHUNK === 0 || stored.length === BULK_CRASH_BATCH);
        if (!prefixOfChunks)
          violations.push(
            `kill ${kills}: call ${call} left positions ${stored.slice(0, 5).join(',')}... (${stored.length}), not whole first chunks`,
          );
        if (acknowledged.has(call) && stored.length !== BULK_CRASH_BATCH)
          violations.push(`kill ${kills}: acknowledged call ${call} has ${stored.length} items`);
        if (!acknowledged.has(call) && stored.length > 0 && stored.length < BULK_CRASH_BATCH) cutShort++;
      }
      // the next worker starts from a clean store; the checks above saw everything this one left
      await BulkCrashItem.removeMany(ids);
      sent.clear();
      acknowledged.clear();
    }
    process.stdout.write(`bulk crash test: ${kills} kills, ${cutShort} calls cut between chunks, ${violations.length} violations\n`);
    expect(violations.slice(0, 20)).toEqual([]);
  }, 240_000);
});

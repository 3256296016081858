import { reportOf } from '../support/worker-processes/spawn-worker';
import { modeEnv, useWorkerProcesses } from '../support/worker-processes/use-workers';
import { CcNote, CcPost, CcTag, CcUser, RELATION_MODELS } from '../support/relation-workers/worker-models';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Worker processes remove parents (cascading and nullifying) while others create children pointing to them,
 * re-point existing children and change memberships. Whatever the interleaving, no child points to a missing
 * parent, every foreign key index and every index scoped by a foreign key agrees with the objects, and every
 * membership is on both sides.
 */

const USERS = 30;
const TAGS = 8;
/** Rounds per process: a remover's round removes and creates a parent, a creator's makes one child write. */
const ROUNDS = { delete: 150, create: 400 };

const redis = useTestRedis();
const relationWorkers = useWorkerProcesses(redis, 'relations', 'tests/support/relation-workers/worker.ts');

beforeAll(async () => {
  for (let i = 0; i < USERS; i++) await CcUser.create({ name: `u${i}` });
  for (let i = 0; i < TAGS; i++) await CcTag.create({ name: `t${i}` });
});

it('parents removed while children are created and re-pointed: no dangling pointer, indexes and memberships agree', async () => {
  const modes = ['delete', 'delete', 'create', 'create', 'create'] as const;
  const workers = await relationWorkers.run(
    modes.length,
    (i) => modeEnv(modes[i], { ops: ROUNDS[modes[i]], users: USERS, tags: TAGS }),
    120_000,
  );
  const totals: Record<string, number> = {};
  for (const worker of workers) {
    for (const [name, count] of Object.entries(reportOf<Record<string, number>>(worker))) totals[name] = (totals[name] ?? 0) + count;
  }
  // each remover round ends by creating a user or a tag in place of the one it removed
  expect(totals.userCreate + totals.tagCreate).toBe(2 * ROUNDS.delete);
  // The run must really have raced: removals, and both accepted and refused child writes.
  expect(totals.userRemove).toBeGreaterThan(5);
  expect(totals.postCreate).toBeGreaterThan(10);
  expect(totals.postCreateRefused).toBeGreaterThan(0);
  expect(totals.tagAdd).toBeGreaterThan(5);
  expect(totals.tagRemove).toBeGreaterThan(0);
  expect(totals.postRepoint + totals.noteRepoint).toBeGreaterThan(5);

  for (const model of RELATION_MODELS) await expectIndexesConsistent(model, redis.raw, redis.prefix);
  const report = await expectRelationsConsistent(RELATION_MODELS, redis.raw, redis.prefix);
  const [users, posts, notes, tags] = await Promise.all([CcUser.count(), CcPost.count(), CcNote.count(), CcTag.count()]);
  console.log(
    `relations under ${modes.length} processes: ${JSON.stringify(totals)}; left ${users} users, ${posts} posts, ` +
      `${notes} notes, ${tags} tags, ${report.foreignKeys} foreign keys, ${report.memberships} memberships, all consistent`,
  );
}, 180_000);

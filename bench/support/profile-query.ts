/**
 * Where the time of the query benchmark's Q1, Q2 and Q3 goes: the whole call, the script call alone through
 * node-redis (arguments built once), the script inside Redis (INFO commandstats), and the plain commands
 * a hand-written reader would send. Q3 (top 20 by score) meets a tie group of about n / 1,000 posts. For finding costs, not for publishing figures (bench/query.ts is that).
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/support/profile-query.ts [--n 50000] [--reps 300] [--cpu-loop 0]
 *
 * `--cpu-loop S` then runs Q1 and Q2 for S seconds each (for `node --cpu-prof -r ts-node/register ...`).
 */
import 'reflect-metadata';
import { Attr, BaseEntity, Index, Model } from '../../src';
import { activeConnection } from '../../src/redis/connection';
import { descriptorOf } from '../../src/model/model-registry';
import { queryScript } from '../../src/store/lua/query';
import { QueryRunner } from '../../src/query/query-runner';
import { scripts } from '../../src/store/scripts';
import { seeded } from '../../tools/seeded-random';
import { option, positiveInteger } from './args';
import { redisCpu } from './call-costs';
import { runBenchSession } from './bench-session';
import { median } from './measure';

@Model({ name: 'QueryBenchPost' })
class Post extends BaseEntity {
  @Attr() @Index() topic!: string;
  @Attr() @Index() @Index({ scope: 'topic' }) score!: number;
  @Attr() authorId!: string;
  @Attr() @Index({ scope: 'authorId' }) createdAt!: Date;
}

const N = positiveInteger('n', 'N', 50000);
const REPS = positiveInteger('reps', 'REPS', 300);
const CPU_LOOP = Number(option('cpu-loop', 'CPU_LOOP') ?? 0);
const WHERE = { topic: 't3', score: { gte: 100, lte: 200 } };
const TOP = 20;

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await run();
  const samples: number[] = [];
  // CPU time of this process per call: what the Node side costs, far steadier than wall time on a busy machine
  const cpu = process.cpuUsage();
  for (let i = 0; i < REPS; i++) {
    const began = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  const nodeUs = (used.user + used.system) / REPS;
  console.log(`${label.padEnd(48)} median ${median(samples).toFixed(3)} ms, Node CPU ${nodeUs.toFixed(0)} us/call`);
}

runBenchSession('profq', async ({ prefix, raw }) => {
  const random = seeded(20240601);
  for (let start = 0; start < N; start += 1000) {
    const batch: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(N, start + 1000); i++) {
      batch.push(
        Post.create({
          topic: `t${Math.floor(random() * 10)}`,
          score: Math.floor(random() * 1000),
          authorId: `a${Math.floor(random() * 500)}`,
          createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000),
        }),
      );
    }
    await Promise.all(batch);
  }
  console.log(`${N} posts; Q1 matches ${(await Post.findIds(WHERE)).length}`);

  if (CPU_LOOP > 0) {
    for (const [label, run] of [
      ['Q1', () => Post.findIds(WHERE)],
      ['Q2', () => Post.findBy(WHERE)],
    ] as const) {
      const until = Date.now() + CPU_LOOP * 1000;
      let count = 0;
      while (Date.now() < until) {
        await run();
        count++;
      }
      console.log(`${label}: ${count} calls in ${CPU_LOOP} s`);
    }
    return;
  }

  const model = descriptorOf(Post);
  const runner = new QueryRunner(model, activeConnection());
  const plan = runner.plan(WHERE).shards[0];
  const keys = model.keys(prefix);
  const client = activeConnection().client;
  const idsArgs = queryScript.args({ keys, mode: 'ids', numericIds: true, plan, page: { offset: 0, limit: -1 } });
  const loadArgs = queryScript.args({ keys, mode: 'load', numericIds: true, plan, page: { offset: 0, limit: -1 } });
  const script = scripts.query();
  console.log('plan:', JSON.stringify(plan));
  const scoped = `${keys.base}:idx:score@topic:t3`;

  const stats = async (label: string, run: () => Promise<unknown>) => {
    await raw.sendCommand(['CONFIG', 'RESETSTAT']);
    const before = await redisCpu(raw);
    await time(label, run);
    console.log(`    redis main thread CPU ${((((await redisCpu(raw)) - before) * 1e6) / (REPS + 20)).toFixed(0)} us/call`);
    const info = await raw.info('commandstats');
    const rows = info
      .split('\n')
      .filter((line) => line.startsWith('cmdstat_') && !line.includes('cmdstat_info') && !line.includes('cmdstat_config'));
    for (const row of rows) console.log(`    redis: ${row.trim()}`);
  };

  await stats('Q1 findIds (whole call)', () => Post.findIds(WHERE));
  await stats('Q1 evalSha query.lua ids (args built once)', () => script.run(client, [keys.all, keys.base], idsArgs));
  await stats('Q1 ZRANGE scoped window BYSCORE', () => raw.zRange(scoped, 100, 200, { BY: 'SCORE' }));
  await stats('Q2 findBy (whole call)', () => Post.findBy(WHERE));
  await stats('Q2 evalSha query.lua load (args built once)', () => script.run(client, [keys.all, keys.base], loadArgs));
  await stats('Q2 runner.load (no entities)', () => runner.load({ shards: [plan] }, { offset: 0, limit: -1 }));

  const top = runner.plan({}, { score: 'desc' }).shards[0];
  const topArgs = queryScript.args({ keys, mode: 'load', numericIds: true, plan: top, page: { offset: 0, limit: TOP } });
  const byScore = `${keys.base}:idx:score`;
  await stats(`Q3 findBy top ${TOP} by score desc (whole call)`, () => Post.findBy({}, { orderBy: { score: 'desc' }, limit: TOP }));
  await stats('Q3 evalSha query.lua load (args built once)', () => script.run(client, [keys.all, keys.base], topArgs));
  await stats(`Q3 ZRANGE REV 0 ${TOP - 1}, then a MULTI of HGETALLs`, async () => {
    const ids = await raw.zRange(byScore, 0, TOP - 1, { REV: true });
    const reads = raw.multi();
    for (const id of ids) reads.hGetAll(keys.object(id));
    return reads.exec();
  });
});

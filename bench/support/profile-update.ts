/**
 * Where the time of the CRUD benchmark's update goes: save() of one changed attribute against the
 * hand-written guarded EVALSHA, one awaited after the other, as bench/crud.ts runs them. Prints wall time and
 * this process's CPU time per update (the Node side's cost, steady on a busy machine). For finding costs, not
 * for publishing figures (bench/crud.ts is that).
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/support/profile-update.ts [--n 2000] [--rounds 5] [--cpu-loop 0]
 *
 * `--cpu-loop S` then only runs redis-record updates (hand-written ones with `--hand`) for S seconds (for
 * `node --cpu-prof -r ts-node/register`).
 */
import 'reflect-metadata';
import { Attr, BaseEntity, Model } from '../../src';
import { option, positiveInteger } from './args';
import { runBenchSession } from './bench-session';
import { GUARDED_HSET } from './guarded-hset';
import { CallCost, callCosts, formatCost } from './call-costs';

@Model({ name: 'ProfilePost' })
class Post extends BaseEntity {
  @Attr() author!: string;
  @Attr() topic!: string;
  @Attr() content!: string;
}

const N = positiveInteger('n', 'N', 2000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 5);
const CPU_LOOP = Number(option('cpu-loop', 'CPU_LOOP') ?? 0);

const text = (i: number, round: number) => `content ${round} of post ${i} `.repeat(40);

runBenchSession('profu', async ({ prefix, raw }) => {
  const posts: Post[] = [];
  for (let i = 0; i < N; i++) posts.push(await Post.create({ author: `a${i}`, topic: `t${i % 10}`, content: text(i, 0) }));
  const loaded = await Promise.all(posts.map((post) => Post.findOrFail(post.id!)));
  const all = `${prefix}:{ProfilePost}:all`;
  const object = (id: string) => `${prefix}:{ProfilePost}:obj:${id}`;
  const sha = String(await raw.scriptLoad(GUARDED_HSET));

  const record = async (round: number) => {
    for (let i = 0; i < N; i++) {
      const post = loaded[i];
      post.content = text(i, round);
      await post.save();
    }
  };
  const hand = async (round: number) => {
    for (let i = 0; i < N; i++) {
      const id = loaded[i].id!;
      if ((await raw.evalSha(sha, { keys: [all, object(id)], arguments: [id, 'content', text(i, round)] })) !== 1)
        throw new Error('missing');
    }
  };

  if (CPU_LOOP > 0) {
    const until = Date.now() + CPU_LOOP * 1000;
    let round = 1;
    const run = option('hand', 'HAND') !== undefined ? hand : record;
    while (Date.now() < until) await run(round++);
    console.log(`${(round - 1) * N} updates in ${CPU_LOOP} s`);
    return;
  }

  let round = 1;
  const measure = (run: (round: number) => Promise<void>) => {
    const current = round++;
    return callCosts(raw, N, () => run(current));
  };
  await measure(record); // warm-up
  await measure(hand);
  const rows: Array<{ record: CallCost; hand: CallCost }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) rows.push({ record: await measure(record), hand: await measure(hand) });
    else {
      const handFirst = await measure(hand);
      rows.push({ record: await measure(record), hand: handFirst });
    }
  }
  for (const row of rows) {
    console.log(
      `update, per call (wall / Node CPU / Redis CPU): redis-record ${formatCost(row.record)}; ` +
        `hand-written ${formatCost(row.hand)}; wall ratio ${(row.record.wall / row.hand.wall).toFixed(2)}`,
    );
  }
});

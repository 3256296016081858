/**
 * Where the time of the CRUD benchmark's delete goes: remove() of loaded posts (an equality index and a Date
 * index, as in the suite) against the same script called directly with the same keys and arguments, which is
 * what remove() costs without the library's own work around it, and against a bare PING on a node-redis client
 * of its own: the round trip alone, what any one-command operation costs at least (nohm's delete is two round
 * trips: an SMEMBERS, then a MULTI). One call awaited after the other, as the benchmarks run them; the three
 * take turns, round after round, remove() and the script each on freshly created posts. Prints per call: wall
 * time, this process's CPU, Redis's main-thread CPU, and the script's own time (INFO commandstats). For
 * finding costs, not for publishing figures (npm run bench is that).
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/support/profile-remove.ts [--n 5000] [--rounds 4]
 */
import 'reflect-metadata';
import { Attr, BaseEntity, Index, Model } from '../../src';
import { activeConnection } from '../../src/redis/connection';
import { indexedRemovalScript } from '../../src/store/indexed-removal';
import { descriptorOf } from '../../src/model/model-registry';
import { positiveInteger } from './args';
import { runBenchSession } from './bench-session';
import { CallCost, callCosts, commandTimeBetween, commandTimes, formatCost } from './call-costs';

@Model({ name: 'ProfileRemovedPost' })
class Post extends BaseEntity {
  @Attr() author!: string;
  @Attr() @Index() topic!: string;
  @Attr() content!: string;
  @Attr() @Index() createdAt!: Date;
}

const N = positiveInteger('n', 'N', 5000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 4);

runBenchSession('profr', async ({ prefix, raw, client: pinger }) => {
  const base = `${prefix}:{ProfileRemovedPost}`;
  const script = indexedRemovalScript(descriptorOf(Post).indexes);
  const fresh = async (round: number) => {
    const built = Array.from({ length: N }, (_, i) =>
      Post.build({
        author: `a${i}`,
        topic: `t${i % 20}`,
        content: `post ${i} of round ${round} `.repeat(40),
        createdAt: new Date(1e12 + i),
      }),
    );
    await Post.saveMany(built);
    return (await Post.findMany(built.map((post) => post.id!))) as Post[];
  };
  const record = async (posts: Post[]) => {
    for (const post of posts) await post.remove();
  };
  const direct = async (posts: Post[]) => {
    const client = activeConnection().client;
    for (const post of posts) {
      const id = post.id!;
      await script.run(client, [`${base}:all`, `${base}:obj:${id}`, base], [id]);
    }
  };
  let round = 0;
  const measure = async (run: (posts: Post[]) => Promise<void>): Promise<CallCost & { script: number }> => {
    const posts = await fresh(round++);
    const before = await commandTimes(raw);
    const cost = await callCosts(raw, N, () => run(posts));
    const evalsha = commandTimeBetween(before, await commandTimes(raw), 'evalsha');
    return { ...cost, script: evalsha.usec / evalsha.calls };
  };
  const pings = () =>
    callCosts(raw, N, async () => {
      for (let i = 0; i < N; i++) await pinger.ping();
    });
  await measure(record); // warm-up
  await measure(direct);
  await pings();
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0 ? record : direct;
    const a = await measure(first);
    const b = await measure(first === record ? direct : record);
    const [own, bare] = first === record ? [a, b] : [b, a];
    const ping = await pings();
    console.log(
      `remove, per call (wall / Node CPU / Redis CPU): remove() ${formatCost(own)}, script ${own.script.toFixed(1)} us; ` +
        `the script alone ${formatCost(bare)}; PING ${formatCost(ping)}; wall ratio to the script ${(own.wall / bare.wall).toFixed(2)}, ` +
        `to PING ${(own.wall / ping.wall).toFixed(2)}`,
    );
  }
});

/**
 * What creating one object costs Redis and the client, by the way it is sent: N of the suite's posts
 * (bench/workloads/posts.ts, about 1 KB each, two indexed attributes) created by three writers taking turns:
 *
 * - `save(), C in flight`: `SuitePost.create(...)` for each post, C at a time: one create-plain.lua call each;
 * - `hand-written, C in flight`: the suite's hand-written peer (bench/peers/hand-written-peer.ts), C at a time:
 *   INCR for the id, then one MULTI of HSET, ZADD all, SADD topic, ZADD createdAt;
 * - `saveMany`: one `SuitePost.saveMany(...)` call with every post (its default chunks): one MULTI per chunk;
 * - `saveMany, save-many.lua`: the same call for a twin of SuitePost that also declares a foreign key, left
 *   unset: the very same writes (the hash, `all`, the topic and createdAt entries), made by one save-many.lua
 *   call per chunk, as for every model with a foreign key (docs/bulk-operations.md, "How the writes are sent").
 *
 * Per writer: posts/s, this process's CPU per post, Redis's main thread's (INFO cpu), and how much of that
 * Redis's own timers put inside scripts (EVALSHA, EVAL) and inside transactions (EXEC). Medians over the
 * rounds (the first is a warm-up, not counted), the order rotating each round. The keys are deleted between
 * runs (not flushed), so that every run finds Redis's memory as warm as the last one left it.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/create-costs.ts [--n=10000] [--rounds=7] [--in-flight=50]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { handWrittenPeer } from './peers/hand-written-peer';
import { inFlight } from './peers/peer';
import { SuitePost, suitePostAttributes } from './peers/redis-record-peer';
import { ScriptedPost } from './peers/scripted-post';
import { positiveInteger } from './support/args';
import { deleteKeys, describeRedis } from './support/bench-redis';
import { runBenchSession } from './support/bench-session';
import { CallCost, callCosts, commandTimeBetween, commandTimes } from './support/call-costs';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import { makePosts } from './workloads/posts';

const N = positiveInteger('n', 'N', 10_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 7);
const IN_FLIGHT = positiveInteger('in-flight', 'IN_FLIGHT', 50);
const SEED = 13;

/** A run's costs per post, with Redis's time inside scripts and inside EXEC. */
type Run = CallCost & { scripts: number; transactions: number };

runBenchSession('createcosts', async ({ url, prefix, raw }) => {
  const { posts } = makePosts(N, SEED, 0);
  const hand = await handWrittenPeer(url, `${prefix}:hand`);
  // each writer's posts are counted in Redis after its run, outside the timing
  const countRecord = () => SuitePost.count();
  const writers: Record<string, { run: () => Promise<unknown>; count: () => Promise<number> }> = {
    [`save(), ${IN_FLIGHT} in flight`]: {
      run: () => inFlight(0, N, IN_FLIGHT, (i) => SuitePost.create(suitePostAttributes(posts[i]))),
      count: countRecord,
    },
    [`hand-written, ${IN_FLIGHT} in flight`]: {
      run: () => {
        hand.reset(N);
        return inFlight(0, N, IN_FLIGHT, (i) => hand.create(posts[i], i));
      },
      count: () => hand.count!(),
    },
    saveMany: {
      run: () => SuitePost.saveMany(posts.map((post) => SuitePost.build(suitePostAttributes(post)))),
      count: countRecord,
    },
    'saveMany, save-many.lua': {
      run: () => ScriptedPost.saveMany(posts.map((post) => ScriptedPost.build(suitePostAttributes(post)))),
      count: () => ScriptedPost.count(),
    },
  };
  const names = Object.keys(writers);
  console.log(`creating ${N.toLocaleString('en-US')} suite posts, ${ROUNDS} rounds (the first not counted), ${describeRedis(url)}`);

  const runs = new Map<string, Run[]>(names.map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length];
        await deleteKeys(raw, prefix);
        const before = await commandTimes(raw);
        const cost = await callCosts(raw, N, async () => void (await writers[name].run()));
        const after = await commandTimes(raw);
        const stored = Number(await writers[name].count());
        check(stored === N, `${name} stored ${stored} posts, expected ${N}`);
        const usec = (command: string) => commandTimeBetween(before, after, command).usec / N;
        const run: Run = { ...cost, scripts: usec('evalsha') + usec('eval'), transactions: usec('exec') };
        if (round === 0) continue; // warm-up
        runs.get(name)!.push(run);
        const rate = Math.round(1e6 / run.wall).toLocaleString('en-US');
        console.log(
          `  round ${round}: ${name}: ${rate} posts/s, client ${run.cpu.toFixed(1)} us, Redis ${run.redis.toFixed(1)} us per post`,
        );
      }
    }
  } finally {
    await hand.close();
  }

  const med = (name: string, part: keyof Run) => median(runs.get(name)!.map((run) => run[part]));
  const us = (value: number) => `${value.toFixed(1)} us`;
  console.log('');
  printTable(
    ['writer', 'posts/s', 'client CPU per post', 'Redis CPU per post', 'of which in scripts', 'of which in EXEC'],
    ['left', 'right', 'right', 'right', 'right', 'right'],
    names.map((name) => [
      name,
      Math.round(1e6 / med(name, 'wall')).toLocaleString('en-US'),
      us(med(name, 'cpu')),
      us(med(name, 'redis')),
      us(med(name, 'scripts')),
      us(med(name, 'transactions')),
    ]),
  );
});

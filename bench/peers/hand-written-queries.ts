import type { Client } from '../support/bench-redis';
import { check } from '../support/measure';
import { checkQ2, Q1_MAX, Q1_MIN, Q1_TOPIC, Q4_AUTHORS, QueryLibrary, QueryPost, sameNumbers, TOP } from '../workloads/query-data';

const LOAD_IN_FLIGHT = 1000;

/**
 * The query workload in hand-written node-redis code, on the indexes a careful programmer would keep for these
 * four questions (the ones redis-record keeps): a set per topic, sorted sets by score, by score per topic and
 * by createdAt per author. Each query is one range read, then one MULTI of HGETALLs for the objects.
 */
export function handWrittenQueries(client: Client, prefix: string): QueryLibrary {
  const base = `${prefix}:{HandQueryPost}`;
  const all = `${base}:all`;
  const object = (id: string) => `${base}:obj:${id}`;
  const byTopic = (topic: string) => `${base}:idx:topic:${topic}`;
  const byScore = `${base}:idx:score`;
  const byScoreOfTopic = (topic: string) => `${base}:idx:score@topic:${topic}`;
  const byTimeOfAuthor = (author: string) => `${base}:idx:createdAt@authorId:${author}`;

  const objects = async (ids: string[]): Promise<QueryPost[]> => {
    if (ids.length === 0) return [];
    const multi = client.multi();
    for (const id of ids) multi.hGetAll(object(id));
    const hashes = (await multi.exec()) as unknown as Array<Record<string, string>>;
    return hashes.map((hash) => ({
      topic: hash.topic,
      score: Number(hash.score),
      authorId: hash.authorId,
      createdAt: Number(hash.createdAt),
    }));
  };
  const q1 = () => client.zRangeByScore(byScoreOfTopic(Q1_TOPIC), Q1_MIN, Q1_MAX);

  return {
    label: 'hand-written',
    async load(posts, from, to) {
      for (let start = from; start < to; start += LOAD_IN_FLIGHT) {
        const batch: Promise<unknown>[] = [];
        for (let i = start; i < Math.min(to, start + LOAD_IN_FLIGHT); i++) {
          const post = posts[i];
          const id = String(i + 1);
          batch.push(
            client
              .multi()
              .hSet(object(id), {
                topic: post.topic,
                score: String(post.score),
                authorId: post.authorId,
                createdAt: String(post.createdAt),
              })
              .zAdd(all, { score: i + 1, value: id })
              .sAdd(byTopic(post.topic), id)
              .zAdd(byScore, { score: post.score, value: id })
              .zAdd(byScoreOfTopic(post.topic), { score: post.score, value: id })
              .zAdd(byTimeOfAuthor(post.authorId), { score: post.createdAt, value: id })
              .exec(),
          );
        }
        await Promise.all(batch);
      }
    },
    async query(key, rep, expected) {
      if (key === 'Q1') {
        const ids = await q1();
        check(ids.length === expected.q1Count, `hand-written Q1 returned ${ids.length} ids, expected ${expected.q1Count}`);
      } else if (key === 'Q2') {
        checkQ2('hand-written', await objects(await q1()), expected);
      } else if (key === 'Q3') {
        const top = await objects(await client.zRange(byScore, 0, TOP - 1, { REV: true }));
        check(
          sameNumbers(
            top.map((post) => post.score),
            expected.topScores,
          ),
          'hand-written Q3 scores differ from the data',
        );
      } else {
        const author = Q4_AUTHORS[rep % Q4_AUTHORS.length];
        const newest = await objects(await client.zRange(byTimeOfAuthor(author), 0, TOP - 1, { REV: true }));
        check(
          sameNumbers(
            newest.map((post) => post.createdAt),
            expected.newest(author),
          ),
          `hand-written Q4 createdAt of ${author} differ from the data`,
        );
      }
    },
  };
}

import { createClient } from 'redis';
import type { PostData } from '../workloads/posts';
import { inFlight, packageVersion, Peer } from './peer';
import { GUARDED_HSET } from '../support/guarded-hset';

/** Objects written by one bulk call in flight at once (node-redis pipelines them on its one connection). */
const BULK_IN_FLIGHT = 1000;

/**
 * Hand-written node-redis code on redis-record's key layout, with the same indexes: a hash per post, the
 * `all` sorted set, a set per topic and a sorted set by createdAt. Each write is one MULTI (atomic), ids come
 * from INCR: the commands a careful programmer would send without a library.
 */
export async function handWrittenPeer(url: string, prefix: string): Promise<Peer> {
  const client = createClient({ url, commandOptions: { timeout: 0 } }); // as redis-record's own client (connect({ url }))
  client.on('error', (error) => console.error('hand-written client:', error.message));
  await client.connect();
  const guardSha = String(await client.scriptLoad(GUARDED_HSET));
  const base = `${prefix}:{HandPost}`;
  const sequence = `${base}:seq`;
  const all = `${base}:all`;
  const byTime = `${base}:idx:createdAt`;
  const object = (id: string) => `${base}:obj:${id}`;
  const byTopic = (topic: string) => `${base}:idx:topic:${topic}`;
  let ids: string[] = [];
  let topics: string[] = [];

  const write = (id: string, post: PostData) =>
    client
      .multi()
      .hSet(object(id), { author: post.author, topic: post.topic, content: post.content, createdAt: String(post.createdAt) })
      .zAdd(all, { score: Number(id), value: id })
      .sAdd(byTopic(post.topic), id)
      .zAdd(byTime, { score: post.createdAt, value: id })
      .exec();

  return {
    name: 'hand-written',
    version: packageVersion('redis'),
    notes:
      'node-redis: INCR for the id, then one MULTI (HSET, ZADD all, SADD topic, ZADD createdAt); load: MULTI ZSCORE + HGETALL; count: ZCARD',
    keyPattern: `${base}:*`,
    keyRole: (key) => (key.startsWith(`${base}:obj:`) ? 'object' : 'index'),
    reset(size) {
      ids = new Array(size);
      topics = new Array(size);
    },
    async create(post, i) {
      const id = String(await client.incr(sequence));
      await write(id, post);
      ids[i] = id;
    },
    count: () => client.zCard(all),
    async load(i) {
      const id = ids[i];
      const [score, fields] = (await client.multi().zScore(all, id).hGetAll(object(id)).exec()) as unknown as [
        number | null,
        Record<string, string>,
      ];
      if (score === null) throw new Error(`hand-written: post ${id} is missing`);
      topics[i] = fields.topic;
      return fields.content;
    },
    async update(content, i) {
      const id = ids[i];
      const written = await client.evalSha(guardSha, { keys: [all, object(id)], arguments: [id, 'content', content] });
      if (written !== 1) throw new Error(`hand-written: post ${id} is missing`);
    },
    async remove(i) {
      const id = ids[i];
      await client.multi().del(object(id)).zRem(all, id).sRem(byTopic(topics[i]), id).zRem(byTime, id).exec();
    },
    async bulkCreate(posts, from, to) {
      // One INCRBY reserves the ids of the whole range; the MULTIs are then pipelined.
      const last = await client.incrBy(sequence, to - from);
      const first = last - (to - from) + 1;
      await inFlight(from, to, BULK_IN_FLIGHT, async (i) => {
        const id = String(first + i - from);
        await write(id, posts[i]);
        ids[i] = id;
      });
    },
    bulkMethod: () => `INCRBY once, then one MULTI per post, ${BULK_IN_FLIGHT} in flight (pipelined)`,
    close: async () => void (await client.close()),
  };
}

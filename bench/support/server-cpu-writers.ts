import type { Client } from './bench-redis';

/** One post of the server-CPU benchmark: two indexed attributes (topic: a set per value; createdAt: sorted). */
export interface CpuPost {
  author: string;
  topic: string;
  content: string;
  createdAt: number;
}

/** Create, update and remove of one object, as one writer makes them. */
export interface CpuWriter {
  create(post: CpuPost): Promise<string>;
  /** Writes `post`'s topic, createdAt and content over object `id`'s. */
  update(id: string, post: CpuPost): Promise<void>;
  remove(id: string): Promise<void>;
}

/** The key layout the hand-written writers use, redis-record's own under another model name. */
function layout(base: string) {
  return {
    sequence: `${base}:seq`,
    all: `${base}:all`,
    byTime: `${base}:idx:createdAt`,
    object: (id: string) => `${base}:obj:${id}`,
    byTopic: (topic: string) => `${base}:idx:topic:${topic}`,
  };
}

/**
 * Hand-written node-redis code: INCR then one MULTI (HSET, ZADD all, SADD topic, ZADD createdAt) to create;
 * HMGET of the old values then one MULTI (HSET, SREM old topic, SADD new, ZADD createdAt) to update; HMGET of
 * the topic then one MULTI (DEL, ZREM all, SREM topic, ZREM createdAt) to remove.
 */
export function handWrittenWriter(client: Client, base: string): CpuWriter {
  const keys = layout(base);
  return {
    async create(post) {
      const id = String(await client.incr(keys.sequence));
      await client
        .multi()
        .hSet(keys.object(id), { author: post.author, topic: post.topic, content: post.content, createdAt: String(post.createdAt) })
        .zAdd(keys.all, { score: Number(id), value: id })
        .sAdd(keys.byTopic(post.topic), id)
        .zAdd(keys.byTime, { score: post.createdAt, value: id })
        .exec();
      return id;
    },
    async update(id, post) {
      const [topic] = await client.hmGet(keys.object(id), ['topic', 'createdAt']);
      if (topic === null) throw new Error(`hand-written: post ${id} is missing`);
      await client
        .multi()
        .hSet(keys.object(id), { topic: post.topic, content: post.content, createdAt: String(post.createdAt) })
        .sRem(keys.byTopic(topic), id)
        .sAdd(keys.byTopic(post.topic), id)
        .zAdd(keys.byTime, { score: post.createdAt, value: id })
        .exec();
    },
    async remove(id) {
      const [topic] = await client.hmGet(keys.object(id), ['topic']);
      if (topic === null) throw new Error(`hand-written: post ${id} is missing`);
      await client.multi().del(keys.object(id)).zRem(keys.all, id).sRem(keys.byTopic(topic), id).zRem(keys.byTime, id).exec();
    },
  };
}

/**
 * The floor of a function call: a library whose functions make exactly the hand-written writers' commands
 * and nothing else (no argument layout, no check, no refusal), and one that does nothing. What redis-record's
 * functions cost beyond it is their own Lua work.
 */
export const FLOOR_LIBRARY = `#!lua name=rrbench_floor
redis.register_function('rrbench_empty', function(keys, args) return 1 end)
redis.register_function('rrbench_create', function(keys, args)
  local id = tostring(redis.call('INCR', keys[1]))
  redis.call('HSET', keys[3] .. ':obj:' .. id, 'author', args[1], 'topic', args[2], 'content', args[3], 'createdAt', args[4])
  redis.call('ZADD', keys[2], id, id)
  redis.call('SADD', keys[3] .. ':idx:topic:' .. args[2], id)
  redis.call('ZADD', keys[3] .. ':idx:createdAt', args[4], id)
  return id
end)
redis.register_function('rrbench_update', function(keys, args)
  local id = args[1]
  local old = redis.call('HMGET', keys[1], 'topic', 'createdAt')
  redis.call('HSET', keys[1], 'topic', args[2], 'content', args[3], 'createdAt', args[4])
  redis.call('SREM', keys[2] .. ':idx:topic:' .. old[1], id)
  redis.call('SADD', keys[2] .. ':idx:topic:' .. args[2], id)
  redis.call('ZADD', keys[2] .. ':idx:createdAt', args[4], id)
  return 1
end)
redis.register_function('rrbench_remove', function(keys, args)
  local id = args[1]
  local old = redis.call('HMGET', keys[1], 'topic')
  redis.call('DEL', keys[1])
  redis.call('ZREM', keys[3], id)
  redis.call('SREM', keys[2] .. ':idx:topic:' .. old[1], id)
  redis.call('ZREM', keys[2] .. ':idx:createdAt', id)
  return 1
end)
`;

/** The floor functions (FLOOR_LIBRARY, loaded) as a writer, on the hand-written key layout under `base`. */
export function floorWriter(client: Client, base: string): CpuWriter {
  const keys = layout(base);
  return {
    async create(post) {
      const args = [post.author, post.topic, post.content, String(post.createdAt)];
      return String(await client.sendCommand(['FCALL', 'rrbench_create', '3', keys.sequence, keys.all, base, ...args]));
    },
    async update(id, post) {
      const args = [id, post.topic, post.content, String(post.createdAt)];
      await client.sendCommand(['FCALL', 'rrbench_update', '2', keys.object(id), base, ...args]);
    },
    async remove(id) {
      await client.sendCommand(['FCALL', 'rrbench_remove', '3', keys.object(id), base, keys.all, id]);
    },
  };
}

import { createClient } from 'redis';
import { RedisCommands } from '../../src/redis/redis-commands';
import { indexedRemovalScript } from '../../src/store/indexed-removal';
import { descriptorOf } from '../../src/model/model-registry';
import { deleteKeys, randomHex } from '../support/bench-redis';
import type { PostData } from '../workloads/posts';
import type { TableOneWriter } from './peer';
import { SuitePost } from './redis-record-peer';

/**
 * The two writers of bench/support/delete-floor.ts that are no library. Both write their posts on redis-record's
 * key layout with one MULTI each, and delete one post with one call:
 *   script    the script redis-record's remove() sends for the suite's post (remove-indexed.lua, bound to its
 *             indexes), sent as Script.run sends it: what remove() costs without the library around the call
 *   function  a Redis function (FCALL, Redis 7 and later) making the read and the four writes alone (HMGET,
 *             ZREM, SREM, ZREM, DEL): no check of any key's type, no script body run again per call. No delete
 *             that finds the entries from the stored values gets through Redis in less.
 */
export type FloorKind = 'script' | 'function';

export const FLOOR_KINDS: readonly FloorKind[] = ['script', 'function'];

/** The function's body: the read and the four writes, nothing else. */
const FLOOR_FUNCTION = `local values = redis.call('HMGET', keys[2], 'topic')
local listed = redis.call('ZREM', keys[1], args[1])
if values[1] then redis.call('SREM', keys[3] .. ':idx:topic:' .. values[1], args[1]) end
redis.call('ZREM', keys[3] .. ':idx:createdAt', args[1])
redis.call('DEL', keys[2])
return listed`;

/** The writer `kind` on `url`, its keys under `prefix`; its close deletes them (and its function). */
export async function floorWriter(url: string, prefix: string, kind: FloorKind): Promise<TableOneWriter> {
  const client = createClient({ url, commandOptions: { timeout: 0 } });
  client.on('error', (error) => console.error(`${kind} client:`, error.message));
  await client.connect();
  const base = `${prefix}:{FloorPost}`;
  const all = `${base}:all`;
  const object = (id: string) => `${base}:obj:${id}`;
  const library = `floor${randomHex()}`;
  if (kind === 'function') {
    const source = `#!lua name=${library}\nredis.register_function('${library}', function(keys, args)\n${FLOOR_FUNCTION}\nend)`;
    await client.sendCommand(['FUNCTION', 'LOAD', source]);
  }
  const script = indexedRemovalScript(descriptorOf(SuitePost).indexes);
  let ids: string[] = [];
  let sequence = 0;
  return {
    name: kind,
    reset(size) {
      ids = new Array(size);
    },
    async create(post: PostData, i: number) {
      const id = String(++sequence);
      await client
        .multi()
        .hSet(object(id), { author: post.author, topic: post.topic, content: post.content, createdAt: String(post.createdAt) })
        .zAdd(all, { score: sequence, value: id })
        .sAdd(`${base}:idx:topic:${post.topic}`, id)
        .zAdd(`${base}:idx:createdAt`, { score: post.createdAt, value: id })
        .exec();
      ids[i] = id;
    },
    count: () => client.zCard(all),
    load: async (i) => (await client.hGet(object(ids[i]), 'content')) ?? '',
    update: async (content, i) => void (await client.hSet(object(ids[i]), 'content', content)),
    async remove(i) {
      const id = ids[i];
      if (kind === 'function') await client.sendCommand(['FCALL', library, '3', all, object(id), base, id]);
      else await script.run(client as unknown as RedisCommands, [all, object(id), base], [id]);
    },
    async close() {
      await deleteKeys(client, prefix);
      if (kind === 'function') await client.sendCommand(['FUNCTION', 'DELETE', library]);
      await client.close();
    },
  };
}

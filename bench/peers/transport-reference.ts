import { createClient, RedisClientOptions } from 'redis';
import { socketOptions } from '../../src/connection/socket-defaults';
import { CREATES_IN_FLIGHT, firstChunks, RAMP_CHUNK_SIZE, RAMP_CHUNKS, SAVE_CHUNK_SIZE } from '../../src/entity/bulk-options';
import type { PostData } from '../workloads/posts';
import type { BulkWriter } from './peer';

/** As redis-record's saveMany: posts per MULTI, and MULTIs in flight (after its small first chunks). */
const CHUNK = SAVE_CHUNK_SIZE;
const IN_FLIGHT = CREATES_IN_FLIGHT;

type Command = string[];

/**
 * Not a library: node-redis alone carrying the writes redis-record's saveMany makes for the suite's posts, on
 * the same key layout. Per chunk (saveMany's default size) one MULTI of a DEL of the chunk's object keys (a
 * stray hash is replaced, not merged into), an HSET per post (`#id` and the four attributes), one ZADD to
 * `all`, one ZADD to the createdAt index and one SADD per topic; saveMany's small
 * first chunks one at a time, then as many chunks in flight as saveMany (bulk-options.ts); the ids from one
 * INCRBY. Every command's arguments are built in `prepare`, before the clock starts, and sent with
 * `multi().addCommand`, node-redis's cheapest way in. What it reaches is what the client and the machine can
 * carry for these writes in this run: the ceiling for these native commands, sent atomically through
 * node-redis.
 */
export async function transportReference(url: string, prefix: string): Promise<BulkWriter & { close(): Promise<void> }> {
  // as redis-record opens its own client: no per-command timer, and its socket's 1 MiB write buffer
  const client = createClient({ url, commandOptions: { timeout: 0 }, socket: socketOptions(undefined) as RedisClientOptions['socket'] });
  client.on('error', (error) => console.error('transport reference client:', error.message));
  await client.connect();
  const base = `${prefix}:{RefPost}`;
  const sequence = `${base}:seq`;
  const all = `${base}:all`;
  let chunks: Command[][] = [];
  /** How many of the chunks are the small first ones, sent one at a time. */
  let smallChunks = 0;
  let prepared = 0;

  const build = (posts: readonly PostData[], from: number, to: number, firstId: number): Command[] => {
    const stray: Command = ['DEL'];
    const commands: Command[] = [stray];
    const allEntries: Command = ['ZADD', all];
    const byTime: Command = ['ZADD', `${base}:idx:createdAt`];
    const byTopic = new Map<string, Command>();
    for (let i = from; i < to; i++) {
      const post = posts[i];
      const id = String(firstId + i);
      const created = String(post.createdAt);
      stray.push(`${base}:obj:${id}`);
      commands.push(['HSET', `${base}:obj:${id}`, '#id', id, 'author', post.author, 'topic', post.topic, 'content', post.content, 'createdAt', created]);
      allEntries.push(id, id);
      byTime.push(created, id);
      let topic = byTopic.get(post.topic);
      if (!topic) byTopic.set(post.topic, (topic = ['SADD', `${base}:idx:topic:${post.topic}`]));
      topic.push(id);
    }
    commands.push(allEntries, byTime, ...byTopic.values());
    return commands;
  };

  return {
    name: 'node-redis transport (reference)',
    reset() {
      chunks = [];
      smallChunks = 0;
      prepared = 0;
    },
    prepare(posts, from, to) {
      // the database is emptied before each run: the INCRBY of the run hands out ids 1..(to - from)
      const small = firstChunks(to - from, CHUNK);
      let at = from;
      for (; at < from + small.objects; at += small.size, smallChunks++) {
        chunks.push(build(posts, at, Math.min(at + small.size, from + small.objects), 1 - from));
      }
      for (; at < to; at += CHUNK) chunks.push(build(posts, at, Math.min(at + CHUNK, to), 1 - from));
      prepared = to - from;
    },
    async bulkCreate(_posts, from, to) {
      const first = Number(await client.incrBy(sequence, to - from)) - (to - from) + 1;
      if (first !== 1 || to - from !== prepared) throw new Error(`transport reference: prepared ${prepared} posts from id 1, asked ${to - from} from id ${first}`);
      const send = async (commands: Command[]) => {
        const multi = client.multi();
        for (const command of commands) multi.addCommand(command);
        await multi.exec();
      };
      for (let i = 0; i < smallChunks; i++) await send(chunks[i]);
      let next = smallChunks;
      const lane = async () => {
        while (next < chunks.length) await send(chunks[next++]);
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      // sent: let the commands go, so that the next writer's run does not carry them in its heap
      chunks = [];
    },
    count: async () => Number(await client.zCard(all)),
    bulkMethod: () =>
      `the commands of saveMany, built before the clock starts: INCRBY once, then one MULTI per ${CHUNK} posts (the first ${RAMP_CHUNKS} of ${RAMP_CHUNK_SIZE}, one at a time), ${IN_FLIGHT} in flight`,
    close: async () => void (await client.close()),
  };
}

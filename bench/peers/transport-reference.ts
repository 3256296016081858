import { createClient, RedisClientOptions } from 'redis';
import { socketOptions } from '../../src/redis/node-redis/socket-defaults';
import { CREATES_IN_FLIGHT, firstChunks, RAMP_CHUNK_SIZE, RAMP_CHUNKS, SAVE_CHUNK_SIZE } from '../../src/entity/bulk/bulk-options';
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
 * `all`, one ZADD to the createdAt index and one SADD per topic; saveMany's small first chunks one at a time,
 * then as many chunks in flight as saveMany (bulk-options.ts); the ids from one INCRBY. Each chunk's commands
 * are built from the posts as a lane takes the chunk, inside the timing, as saveMany builds them, and sent with
 * `multi().addCommand`, node-redis's cheapest way in: hand-written code starting from the same data, without
 * an entity, a state or a snapshot per object. What it reaches is what these atomic writes can get through
 * node-redis on this machine in this run.
 *
 * With `prebuilt` (bench/bulk-cpu.ts's third writer) every command is built in `prepare`, before the clock
 * starts: what node-redis carries for these commands with none of their building in the timing. Back to back
 * that form was the slower of the two (the commands of 100,000 posts held at once grow the heap); after an
 * idle, the faster (docs/bulk-operations.md, "Where the time goes").
 */
export async function transportReference(
  url: string,
  prefix: string,
  { prebuilt = false }: { prebuilt?: boolean } = {},
): Promise<BulkWriter & { close(): Promise<void> }> {
  // as redis-record opens its own client: no per-command timer, and its socket's 1 MiB write buffer
  const client = createClient({ url, commandOptions: { timeout: 0 }, socket: socketOptions(undefined) as RedisClientOptions['socket'] });
  client.on('error', (error) => console.error('transport reference client:', error.message));
  await client.connect();
  const base = `${prefix}:{RefPost}`;
  const sequence = `${base}:seq`;
  const all = `${base}:all`;
  /** The chunks of the run, as ranges of posts: [from, to) each, the small first ones first. */
  let ranges: Array<[number, number]> = [];
  /** The commands of each chunk when they are built before the clock starts (`prebuilt`). */
  let built: Command[][] = [];
  /** How many of the chunks are the small first ones, sent one at a time. */
  let smallChunks = 0;

  const build = (posts: readonly PostData[], [from, to]: [number, number], firstId: number): Command[] => {
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
      commands.push([
        'HSET',
        `${base}:obj:${id}`,
        '#id',
        id,
        'author',
        post.author,
        'topic',
        post.topic,
        'content',
        post.content,
        'createdAt',
        created,
      ]);
      allEntries.push(id, id);
      byTime.push(created, id);
      let topic = byTopic.get(post.topic);
      if (!topic) byTopic.set(post.topic, (topic = ['SADD', `${base}:idx:topic:${post.topic}`]));
      topic.push(id);
    }
    commands.push(allEntries, byTime, ...byTopic.values());
    return commands;
  };

  /** Cuts [from, to) into saveMany's chunks: its small first ones, then chunks of CHUNK. */
  const cut = (from: number, to: number) => {
    const small = firstChunks(to - from, CHUNK);
    let at = from;
    for (; at < from + small.objects; at += small.size, smallChunks++) ranges.push([at, Math.min(at + small.size, from + small.objects)]);
    for (; at < to; at += CHUNK) ranges.push([at, Math.min(at + CHUNK, to)]);
  };

  return {
    name: prebuilt ? 'node-redis transport, its commands built before the clock' : 'node-redis transport (reference)',
    reset() {
      ranges = [];
      built = [];
      smallChunks = 0;
    },
    // the database is emptied before each run: the INCRBY of the run hands out ids 1..(to - from)
    ...(prebuilt && {
      prepare(posts: readonly PostData[], from: number, to: number) {
        cut(from, to);
        built = ranges.map((range) => build(posts, range, 1 - from));
      },
    }),
    async bulkCreate(posts, from, to) {
      if (!prebuilt) cut(from, to);
      const first = Number(await client.incrBy(sequence, to - from)) - (to - from) + 1;
      const prepared = ranges.length === 0 ? 0 : ranges[ranges.length - 1][1] - ranges[0][0];
      if (to - from !== prepared || (prebuilt && first !== 1)) {
        throw new Error(`transport reference: prepared ${prepared} posts from id 1, asked ${to - from} from id ${first}`);
      }
      // each chunk's commands, built as a lane takes it (as saveMany builds them), unless built before the clock
      const commandsOf = (chunk: number) => (prebuilt ? built[chunk] : build(posts, ranges[chunk], first - from));
      const send = async (chunk: number) => {
        const multi = client.multi();
        for (const command of commandsOf(chunk)) multi.addCommand(command);
        await multi.exec();
      };
      for (let i = 0; i < smallChunks; i++) await send(i);
      let next = smallChunks;
      const lane = async () => {
        while (next < ranges.length) await send(next++);
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      // sent: let the commands go, so that the next writer's run does not carry them in its heap
      built = [];
    },
    count: async () => Number(await client.zCard(all)),
    bulkMethod: () =>
      `the commands of saveMany, built ${prebuilt ? 'before the clock starts' : 'from the posts inside the timing, as each chunk is sent'}: INCRBY once, then one MULTI per ${CHUNK} posts (the first ${RAMP_CHUNKS} of ${RAMP_CHUNK_SIZE}, one at a time), ${IN_FLIGHT} in flight`,
    close: async () => void (await client.close()),
  };
}

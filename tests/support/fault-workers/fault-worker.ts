/**
 * A worker process of the fault-injection suite (tests/faults): one lane of random writes on the objects it
 * owns (`w` = FZ_WORKER), until it is killed or told to stop. It keeps an exact copy of what it owns (it is the
 * only writer of those objects) and announces each write with the effect it must have, so the test can tell
 * an acknowledged write from an uncertain one and compare with what is stored.
 * Env: REDIS_URL, FZ_PREFIX, FZ_WORKER, FZ_CLIENT_NAME.
 *
 * Protocol (stdout, one line each, written synchronously):
 *   ready                connected; starts on a line on stdin, stops (`done`, exit 0) on a second one
 *   S 0 <universe>       what it read once started
 *   o <n> <op json>      write n is about to be sent: { op, fx: { key: state | null }, unique?, refused?, hit? }
 *                        (`fx` keys are `<kind>:<id>`, `<kind>:new` for a create; null = removed)
 *   A <n> [id]           write n acknowledged (a create with its id)
 *   X <n> <error>        write n refused (UniqueConstraintError, RelationError, NotFoundError): nothing written
 *   F <n> <message>      write n failed otherwise (the connection): it may or may not have been applied
 *   S <n> <universe>     after F: what is stored now, read back once Redis answers again
 *   E <message>          something that should not happen
 */
import { writeSync } from 'fs';
import { createClient } from 'redis';
import { connect, NotFoundError, RedisRecordError, RelationError, UniqueConstraintError } from '../../../src';
import { applicationRedis } from '../clients/test-client';
import { FzBadge, FzBoard, FzNote, FzPost, FzTag, FzUser } from './fault-models';
import { readUniverse, State, Universe, universeToJson } from './universe';

const say = (line: string) => writeSync(1, line + '\n');
const rand = (n: number) => Math.floor(Math.random() * n);
const chance = (p: number) => Math.random() < p;
const word = () =>
  Math.random()
    .toString(36)
    .slice(2, 3 + rand(8));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const COLORS = ['red', 'green', 'blue'];
/** Unique values come from pools shared by every worker, so that they collide across processes. */
const email = () => `e${rand(60)}@x.io`.replace(/^e/, chance(0.5) ? 'E' : 'e');
const code = () => `c${rand(150)}`;
const label = () => `t${rand(40)}`;
const TARGET = { U: 8, P: 14, N: 14, T: 5, B: 3 };

interface Op {
  op: string;
  fx: Record<string, State | null>;
  unique?: boolean;
  refused?: boolean;
  hit?: boolean;
  run: () => Promise<string | void>;
}

/** `read`'s answer, asked again every 30 ms while Redis is down or restarting (slowly on a loaded machine); its error after 60 s of them. */
async function untilAnswered<T>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(30);
    }
  }
}

async function main(): Promise<void> {
  const url = process.env.REDIS_URL!;
  const prefix = process.env.FZ_PREFIX!;
  const w = process.env.FZ_WORKER!;
  // the application's client of REDIS_CLIENT's library (clients/test-client.ts), node-redis by default
  const given = applicationRedis(url, { name: process.env.FZ_CLIENT_NAME, quickReconnect: true, connectTimeoutMs: 2000 });
  const client =
    given ??
    createClient({
      url,
      name: process.env.FZ_CLIENT_NAME,
      socket: { reconnectStrategy: (retries: number) => Math.min(20 * (retries + 1), 200), connectTimeout: 2000 },
    });
  client.on('error', () => undefined);
  if (!given) await (client as ReturnType<typeof createClient>).connect();
  await connect({ client, prefix });

  say('ready');
  let stopping = false;
  let started = false;
  process.stdin.on('data', () => {
    if (started) stopping = true;
    started = true;
  });
  while (!started) await sleep(2);
  // Redis may be killed while these first reads are under way (a slow machine): read again once it answers.
  let universe: Universe = await untilAnswered(() => readUniverse(w));
  say(`S 0 ${universeToJson(universe)}`);
  const board = await untilAnswered(() => FzBoard.findOrFail('1'));

  const ids = (kind: string) => [...universe.keys()].filter((key) => key.startsWith(kind + ':')).map((key) => key.slice(2));
  const pick = (kind: string) => {
    const all = ids(kind);
    return all.length === 0 ? undefined : all[rand(all.length)];
  };
  const get = (kind: string, id: string) => ({ ...universe.get(`${kind}:${id}`)! });
  /** The effect of removing a post: its notes lose their pointer. */
  const removePostFx = (fx: Record<string, State | null>, post: string) => {
    fx[`P:${post}`] = null;
    for (const note of ids('N')) {
      if (universe.get(`N:${note}`)!.postId === post) fx[`N:${note}`] = { ...get('N', note), postId: undefined };
    }
  };

  const choose = (): Op => {
    const roll = rand(100);
    const u = pick('U');
    const p = pick('P');
    const n = pick('N');
    const t = pick('T');
    const b = pick('B');
    if (roll < 3) return { op: 'hit', fx: {}, hit: true, run: async () => void (await board.increment('hits', 1)) };
    if (u === undefined || (roll < 12 && ids('U').length < TARGET.U)) {
      const attrs = { w, name: word(), email: chance(0.7) ? email() : undefined, visits: 0 };
      return {
        op: 'createUser',
        fx: { 'U:new': { ...attrs, tags: [] } },
        unique: attrs.email !== undefined,
        run: async () => (await FzUser.create(attrs)).id,
      };
    }
    if (roll < 18) {
      const state = get('U', u);
      const name = chance(0.7) ? word() : (state.name as string | undefined);
      const mail = chance(0.5) ? (chance(0.8) ? email() : undefined) : (state.email as string | undefined);
      return {
        op: 'updateUser',
        fx: { [`U:${u}`]: { ...state, name, email: mail } },
        unique: mail !== undefined && mail !== state.email,
        run: async () => {
          const user = await FzUser.findOrFail(u);
          user.name = name;
          user.email = mail;
          await user.save();
        },
      };
    }
    if (roll < 24) {
      const by = 1 + rand(5);
      const state = get('U', u);
      return {
        op: 'incrementUser',
        fx: { [`U:${u}`]: { ...state, visits: (state.visits as number) + by } },
        run: async () => void (await (await FzUser.findOrFail(u)).increment('visits', by)),
      };
    }
    if (roll < 29 && ids('U').length > TARGET.U / 2) {
      const restricted = ids('B').some((badge) => universe.get(`B:${badge}`)!.ownerId === u);
      const fx: Record<string, State | null> = {};
      if (!restricted) {
        fx[`U:${u}`] = null;
        for (const post of ids('P')) if (universe.get(`P:${post}`)!.authorId === u) removePostFx(fx, post);
      }
      return { op: 'removeUser', fx, refused: restricted, run: async () => (await FzUser.findOrFail(u)).remove() };
    }
    if (p === undefined || (roll < 40 && ids('P').length < TARGET.P)) {
      const attrs = {
        w,
        authorId: chance(0.85) ? u : undefined,
        rank: rand(100),
        title: word(),
        color: COLORS[rand(3)],
        code: chance(0.5) ? code() : undefined,
        likes: 0,
      };
      return {
        op: 'createPost',
        fx: { 'P:new': attrs },
        unique: attrs.code !== undefined,
        run: async () => (await FzPost.create(attrs)).id,
      };
    }
    if (roll < 50) {
      const state = get('P', p);
      const next = { ...state };
      if (chance(0.6)) next.authorId = chance(0.15) ? undefined : u;
      if (chance(0.5)) next.rank = rand(100);
      if (chance(0.4)) next.title = chance(0.1) ? undefined : word();
      if (chance(0.4)) next.color = COLORS[rand(3)];
      if (chance(0.3)) next.code = chance(0.3) ? undefined : code();
      return {
        op: 'updatePost',
        fx: { [`P:${p}`]: next },
        unique: next.code !== undefined && next.code !== state.code,
        run: async () => {
          const post = await FzPost.findOrFail(p);
          post.author.set((next.authorId as string | undefined) ?? null);
          post.rank = next.rank as number;
          post.title = next.title as string | undefined;
          post.color = next.color as string;
          post.code = next.code as string | undefined;
          await post.save();
        },
      };
    }
    if (roll < 54) {
      const state = get('P', p);
      return {
        op: 'incrementPost',
        fx: { [`P:${p}`]: { ...state, likes: (state.likes as number) + 1 } },
        run: async () => void (await (await FzPost.findOrFail(p)).increment('likes', 1)),
      };
    }
    if (roll < 59 && ids('P').length > TARGET.P / 2) {
      const fx: Record<string, State | null> = {};
      removePostFx(fx, p);
      return { op: 'removePost', fx, run: async () => (await FzPost.findOrFail(p)).remove() };
    }
    if (n === undefined || (roll < 67 && ids('N').length < TARGET.N)) {
      const attrs = { w, postId: chance(0.85) ? p : undefined, order: rand(10) };
      return { op: 'createNote', fx: { 'N:new': attrs }, run: async () => (await FzNote.create(attrs)).id };
    }
    if (roll < 73) {
      const next: State = { ...get('N', n), order: rand(10) };
      if (chance(0.7)) next.postId = chance(0.25) ? undefined : p;
      return {
        op: 'updateNote',
        fx: { [`N:${n}`]: next },
        run: async () => {
          const note = await FzNote.findOrFail(n);
          note.post.set((next.postId as string | undefined) ?? null);
          note.order = next.order as number;
          await note.save();
        },
      };
    }
    if (roll < 77 && ids('N').length > TARGET.N / 2)
      return { op: 'removeNote', fx: { [`N:${n}`]: null }, run: async () => (await FzNote.findOrFail(n)).remove() };
    if (t === undefined || (roll < 80 && ids('T').length < TARGET.T)) {
      const attrs = { w, label: label() };
      return { op: 'createTag', fx: { 'T:new': attrs }, unique: true, run: async () => (await FzTag.create(attrs)).id };
    }
    if (roll < 82 && ids('T').length > TARGET.T / 2) {
      const fx: Record<string, State | null> = { [`T:${t}`]: null };
      for (const user of ids('U')) {
        const tags = universe.get(`U:${user}`)!.tags as string[];
        if (tags.includes(t)) fx[`U:${user}`] = { ...get('U', user), tags: tags.filter((x) => x !== t) };
      }
      return { op: 'removeTag', fx, run: async () => (await FzTag.findOrFail(t)).remove() };
    }
    if (roll < 90) {
      const state = get('U', u);
      const tags = state.tags as string[];
      if (!tags.includes(t) || chance(0.3)) {
        return {
          op: 'addTag',
          fx: { [`U:${u}`]: { ...state, tags: [...new Set([...tags, t])].sort() } },
          run: async () => (await FzUser.findOrFail(u)).tags.add(t),
        };
      }
      const fromTag = chance(0.5);
      return {
        op: fromTag ? 'dropUserFromTag' : 'dropTagFromUser',
        fx: { [`U:${u}`]: { ...state, tags: tags.filter((x) => x !== t) } },
        run: async () => (fromTag ? (await FzTag.findOrFail(t)).users.remove(u) : (await FzUser.findOrFail(u)).tags.remove(t)),
      };
    }
    if (b === undefined || (roll < 94 && ids('B').length < TARGET.B)) {
      const attrs = { w, ownerId: u, kind: COLORS[rand(3)] };
      return { op: 'createBadge', fx: { 'B:new': attrs }, run: async () => (await FzBadge.create(attrs)).id };
    }
    if (roll < 97) {
      const next = { ...get('B', b), ownerId: u };
      return {
        op: 'repointBadge',
        fx: { [`B:${b}`]: next },
        run: async () => {
          const badge = await FzBadge.findOrFail(b);
          badge.owner.set(u);
          await badge.save();
        },
      };
    }
    return { op: 'removeBadge', fx: { [`B:${b}`]: null }, run: async () => (await FzBadge.findOrFail(b)).remove() };
  };

  for (let n = 1; !stopping; n++) {
    const op = choose();
    const { run, ...announced } = op;
    say(`o ${n} ${JSON.stringify(announced)}`);
    let created: string | void;
    try {
      created = await run();
    } catch (error) {
      const refusal = error instanceof UniqueConstraintError || error instanceof RelationError || error instanceof NotFoundError;
      if (refusal) {
        say(`X ${n} ${(error as Error).constructor.name} ${(error as Error).message}`.replace(/\n/g, ' '));
        continue;
      }
      // whatever the client, what reaches the application is redis-record's own error
      if (!(error instanceof RedisRecordError))
        say(`E untyped error: ${(error as Error)?.constructor?.name}: ${String(error)}`.replace(/\n/g, ' '));
      say(
        `F ${n} ${String((error as Error).message)
          .replace(/\n/g, ' ')
          .slice(0, 200)}`,
      );
      // Whether it was applied is unknown: read back what is stored once Redis answers again.
      universe = await untilAnswered(() => readUniverse(w));
      say(`S ${n} ${universeToJson(universe)}`);
      continue;
    }
    say(`A ${n}${created ? ` ${created}` : ''}`);
    if (op.refused) continue;
    for (const [key, state] of Object.entries(op.fx)) {
      const real = key.endsWith(':new') ? `${key[0]}:${created}` : key;
      if (state === null) universe.delete(real);
      else universe.set(real, state);
    }
  }
  say('done');
  if (given) await given.quit().catch(() => undefined);
  else await (client as ReturnType<typeof createClient>).close().catch(() => undefined);
}

main().then(
  () => process.exit(0),
  (error) => {
    say(`E worker stopped: ${String((error as Error).stack ?? error).replace(/\n/g, ' | ')}`);
    process.exit(1);
  },
);

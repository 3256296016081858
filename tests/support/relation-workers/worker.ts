/**
 * A worker process for tests/relations/concurrent-relations.test.ts. Env: REDIS_URL, WORKER_PREFIX, WORKER_MODE,
 * WORKER_ARGS (JSON { ops, users, tags }: how many rounds to run and how many of the newest users and tags to pick from). It prints `ready`
 * once connected, starts on a line on stdin, and ends with `done <json>` (counts of what it did and of the
 * refusals it met); `error <message>` lines are failures (see tests/support/worker-processes/worker-main.ts). Modes:
 *   delete  removes one of the newest users (cascading to their posts, nullifying their notes, dropping their
 *           memberships) or tags, and creates one in its place.
 *   create  creates posts pointing to the newest users, notes pointing to the newest posts, re-points existing
 *           posts and notes, and adds and removes memberships; a refusal (RelationError, a vanished object) is
 *           counted, anything else fails the worker.
 */
import { BaseEntity, EntityClass, NotFoundError, RelationError } from '../../../src';
import { runWorkerModes } from '../worker-processes/worker-main';
import { CcNote, CcPost, CcTag, CcUser } from './worker-models';

type Args = { ops: number; users: number; tags: number };

const rand = (n: number) => Math.floor(Math.random() * n);

/** Runs `step` and counts a refusal instead of failing when the related object is gone. */
async function attempt(counts: Record<string, number>, name: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
    counts[name] = (counts[name] ?? 0) + 1;
  } catch (error) {
    if (!(error instanceof RelationError) && !(error instanceof NotFoundError)) throw error;
    counts[`${name}Refused`] = (counts[`${name}Refused`] ?? 0) + 1;
  }
}

/** The ids of the newest `n` objects of a model (where the races are: both sides pick from them). */
async function newest<T extends BaseEntity>(
  model: EntityClass<T> & Pick<typeof BaseEntity, 'count' | 'findIds'>,
  n: number,
): Promise<string[]> {
  const count = await model.count();
  return model.findIds({}, { offset: Math.max(0, count - n) });
}

const pick = (ids: readonly string[]) => (ids.length === 0 ? '1' : ids[rand(ids.length)]);

async function remover(args: Args, counts: Record<string, number>) {
  for (let round = 0; round < args.ops; round++) {
    // Remove one of the newest users (or tags), then create one, so the population stays about the same.
    const roll = Math.random();
    if (roll < 0.8) {
      const user = await CcUser.find(pick(await newest(CcUser, args.users)));
      if (user) await attempt(counts, 'userRemove', () => user.remove());
      await attempt(counts, 'userCreate', () => CcUser.create({ name: `u${rand(1000)}` }));
    } else {
      const tag = await CcTag.find(pick(await newest(CcTag, args.tags)));
      if (tag) await attempt(counts, 'tagRemove', () => tag.remove());
      await attempt(counts, 'tagCreate', () => CcTag.create({ name: `t${rand(1000)}` }));
    }
    await new Promise((resolve) => setTimeout(resolve, rand(3)));
  }
}

async function creator(args: Args, counts: Record<string, number>) {
  let users: string[] = [];
  let posts: string[] = [];
  let notes: string[] = [];
  let tags: string[] = [];
  for (let round = 0; round < args.ops; round++) {
    if (round % 10 === 0) {
      [users, posts, notes, tags] = await Promise.all([
        newest(CcUser, args.users),
        newest(CcPost, args.users * 3),
        newest(CcNote, args.users * 3),
        newest(CcTag, args.tags),
      ]);
    }
    const roll = Math.random();
    if (roll < 0.3) {
      await attempt(counts, 'postCreate', () => CcPost.create({ authorId: pick(users), rank: rand(100) }));
    } else if (roll < 0.45) {
      const post = await CcPost.find(pick(posts));
      if (post) {
        post.author.set(pick(users));
        post.rank = rand(100);
        await attempt(counts, 'postRepoint', () => post.save());
      }
    } else if (roll < 0.6) {
      const note = CcNote.build({ order: rand(10) });
      note.post.set(pick(posts));
      await attempt(counts, 'noteCreate', () => note.save());
    } else if (roll < 0.7) {
      const note = await CcNote.find(pick(notes));
      if (note) {
        note.post.set(rand(4) === 0 ? null : pick(posts));
        await attempt(counts, 'noteRepoint', () => note.save());
      }
    } else if (roll < 0.9) {
      const owner = await CcUser.find(pick(users));
      if (owner) await attempt(counts, 'tagAdd', () => owner.tags.add(pick(tags)));
    } else {
      const tag = await CcTag.find(pick(tags));
      if (tag) await attempt(counts, 'tagDrop', () => tag.users.remove(pick(users)));
    }
  }
}

/** A mode's report: the counts of what it did and of the refusals it met. */
const counting = (mode: (args: Args, counts: Record<string, number>) => Promise<void>) => async (args: Args) => {
  const counts: Record<string, number> = {};
  await mode(args, counts);
  return counts;
};

runWorkerModes<Args>({ delete: counting(remover), create: counting(creator) });

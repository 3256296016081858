import { Attr, BaseEntity, Index, ManyToMany, Model } from '../../src';
import type { OrderedManyToMany } from '../../src';
import type { Client } from '../support/bench-redis';
import type { KindWorkload } from './query-kinds';

/**
 * Collection queries and writes (C1..C4), each against the hand-written node-redis commands on redis-record's
 * own keys, as query-kinds.ts times the others. Items are the benchmark's seeded posts (topic, createdAt), in a
 * model of their own loaded with saveMany; a shelf holds every 10th of them, once as a set and once as an
 * ordered list. The writes run on two more lists holding the same members, one written by redis-record and one
 * by hand, whose orders (and the items' side of the memberships) are compared after the first call and again
 * after the timed ones.
 */
@Model({ name: 'QueryBenchItem', group: 'QueryBenchColl' })
class Item extends BaseEntity {
  @Attr() @Index() topic!: string;
  @Attr() @Index() createdAt!: Date;
}

@Model({ name: 'QueryBenchShelf', group: 'QueryBenchColl' })
class Shelf extends BaseEntity {
  @ManyToMany(() => Item) items!: ManyToMany<Item>;
  @ManyToMany(() => Item, { ordered: true }) queue!: OrderedManyToMany<Item>;
}

const EVERY = 10;
const PAGE = 20;
/** Item ids in load order, and the shelves (the set and list, the list redis-record writes, the one written by hand). */
const itemIds: string[] = [];
let shelves: Shelf[] = [];

interface ItemLike {
  readonly id?: string;
  readonly topic: string;
}

/** Loads `posts` (the benchmark's, from the first) as items, up to `count`; returns the workloads. */
export async function collectionWorkloads(
  posts: ReadonlyArray<{ readonly topic: string; readonly createdAt: number }>,
  count: number,
  raw: Client,
  prefix: string,
): Promise<KindWorkload[]> {
  const base = `${prefix}:{QueryBenchColl}`;
  const itemBase = `${base}:QueryBenchItem`;
  const shelfBase = `${base}:QueryBenchShelf`;
  for (let start = itemIds.length; start < count; start += 1000) {
    const batch = posts
      .slice(start, Math.min(count, start + 1000))
      .map((post) => ({ topic: post.topic, createdAt: new Date(post.createdAt) }));
    const { saved } = await Item.saveMany(batch);
    itemIds.push(...saved.map((item) => item.id));
  }
  if (shelves.length === 0) shelves = await Promise.all([0, 1, 2].map(() => Shelf.create({})));
  const [shelf, mine, byHand] = shelves;
  // the members: every 10th item; the lists hold them newest first, an order that is not the ids'
  const members = itemIds.slice(0, count).filter((_, i) => i % EVERY === 0);
  const listed = [...members].reverse();
  await shelf.items.replace(members);
  for (const list of shelves) await list.queue.replace(listed);
  const items = (rows: ItemLike[]) => rows.map((item) => ({ id: item.id, topic: item.topic }));
  const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const hashes = async (ids: readonly string[]) => {
    const pipeline = raw.multi();
    for (const id of ids) pipeline.hGetAll(`${itemBase}:obj:${id}`);
    const found = (await pipeline.execAsPipeline()) as unknown as Array<Record<string, string>>;
    return found.map((hash) => ({ id: hash['#id'], topic: hash.topic }));
  };
  const queueOf = (owner: Shelf) => `${shelfBase}:rel:queue:${owner.id}`;
  const sideOf = (itemId: string) => `${itemBase}:rev:QueryBenchShelf.queue:${itemId}`;
  // what a write left: the list's order, and whether each item's side names the list
  const state = (owner: Shelf) => async () => {
    const ids = await raw.zRange(queueOf(owner), 0, -1);
    const pipeline = raw.multi();
    for (const id of ids) pipeline.sIsMember(sideOf(id), owner.id!);
    return { ids, sides: (await pipeline.execAsPipeline()).map(Number) };
  };
  // pushes append items that are not members, the same ones in the same order on both lists
  const outside = itemIds.slice(0, count).filter((_, i) => i % EVERY === 1);
  const pushed = [0, 0];
  // moves take members round the list to places spread over it (never twice into one gap in a row)
  const moved = [0, 0];
  const moveOf = (which: number) => {
    const turn = moved[which]++;
    return { id: listed[(turn * 7) % listed.length], index: 1 + ((turn * 7919) % Math.max(1, listed.length - 3)) };
  };
  const middle = Math.floor(members.length / 2);
  return [
    {
      label: `C1 many-to-many findBy topic = 't3', newest ${PAGE} by createdAt, objects (${members.length.toLocaleString('en-US')} members)`,
      record: () => shelf.items.findBy({ topic: 't3' }, { orderBy: { createdAt: 'desc' }, limit: PAGE }),
      async hand() {
        // the members' set, the topic's set and the createdAt index intersected, scored by createdAt
        const tmp = `${base}:benchtmp`;
        const [, ids] = await raw
          .multi()
          .zInterStore(tmp, [
            { key: `${itemBase}:idx:createdAt`, weight: 1 },
            { key: `${shelfBase}:rel:items:${shelf.id}`, weight: 0 },
            { key: `${itemBase}:idx:topic:t3`, weight: 0 },
          ])
          .zRange(tmp, 0, PAGE - 1, { REV: true })
          .del(tmp)
          .exec();
        return hashes(ids as unknown as string[]);
      },
      same: (a, b) => sameJson(items(a as ItemLike[]), b),
    },
    {
      label: `C2 ordered list page of ${PAGE}, offset ${middle.toLocaleString('en-US')}, objects`,
      record: () => shelf.queue.list({ offset: middle, limit: PAGE }),
      hand: async () => hashes(await raw.zRange(queueOf(shelf), middle, middle + PAGE - 1)),
      same: (a, b) => sameJson(items(a as ItemLike[]), b),
    },
    {
      label: 'C3 ordered list push of one item',
      record: () => mine.queue.push(outside[pushed[0]++ % outside.length]),
      async hand() {
        // after the last position, 65,536 on, and the item's side of the membership
        const id = outside[pushed[1]++ % outside.length];
        const [last] = await raw.zRangeWithScores(queueOf(byHand), -1, -1);
        await raw
          .multi()
          .zAdd(queueOf(byHand), { score: (last?.score ?? 0) + 65536, value: id })
          .sAdd(sideOf(id), byHand.id!)
          .exec();
      },
      same: () => true,
      state: { record: state(mine), hand: state(byHand) },
    },
    {
      label: 'C4 ordered list move of one member',
      async record() {
        const { id, index } = moveOf(0);
        await mine.queue.move(id, index);
      },
      async hand() {
        // halfway between the members that end up on either side of it (ranks counted without it)
        const { id, index } = moveOf(1);
        const [rank, around] = (await raw
          .multi()
          .zRank(queueOf(byHand), id)
          .zRangeWithScores(queueOf(byHand), index - 1, index + 1)
          .exec()) as unknown as [number, Array<{ value: string; score: number }>];
        const [before, after] = rank < index - 1 ? around.slice(1) : around.filter((row) => row.value !== id);
        await raw.zAdd(queueOf(byHand), { score: (before.score + after.score) / 2, value: id });
      },
      same: () => true,
      state: { record: state(mine), hand: state(byHand) },
    },
  ];
}

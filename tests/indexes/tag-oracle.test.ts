import { Attr, BaseEntity, Index, Model, ValidationError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Tag indexes against an oracle: random objects, each random where (has, hasAny, hasAll and exists, with
 * equalities, negations, ranges and OR) compared with the same filter computed over all objects in TypeScript.
 * Then what check(), repair() and reindex() do with tag and compound entries, saveMany, expiry and a cap on a tag
 * model, and the typed error of an element that is no string.
 */

@Model()
@Index(['topic', 'score'])
class Card extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
}

@Model({ expirable: true, cap: { by: 'score', keep: 4 } })
class Flash extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
}

const redis = useTestRedis();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  id: string;
  topic?: string;
  score?: number;
  tags?: string[];
}
type Filter = (row: Row) => boolean;

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const next = random(7);
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
const ELEMENTS = ['a', 'b', 'c', 'd', 'é', 'x y', ''];
const someOf = (max: number) => Array.from({ length: Math.floor(next() * (max + 1)) }, () => pick(ELEMENTS));

/** One random condition on the tags, and the filter it means. */
function tagCondition(): [object, Filter] {
  const kind = pick(['has', 'hasAny', 'hasAll', 'exists', 'mixed'] as const);
  const has = (row: Row, element: string) => row.tags?.includes(element) ?? false;
  if (kind === 'has') {
    const element = pick(ELEMENTS);
    return [{ has: element }, (row) => has(row, element)];
  }
  if (kind === 'hasAny') {
    const list = someOf(3);
    return [{ hasAny: list }, (row) => list.some((element) => has(row, element))];
  }
  if (kind === 'hasAll') {
    const list = someOf(2);
    return [{ hasAll: list }, (row) => list.every((element) => has(row, element))];
  }
  if (kind === 'exists') {
    const exists = next() < 0.5;
    return [{ exists }, (row) => (row.tags?.length ?? 0) > 0 === exists];
  }
  const element = pick(ELEMENTS);
  const list = someOf(2);
  return [{ has: element, hasAny: list }, (row) => has(row, element) && list.some((e) => has(row, e))];
}

/** One random where with a tag condition, and the filter it means. */
function randomWhere(depth = 0): [Record<string, unknown>, Filter] {
  const [tags, tagFilter] = tagCondition();
  const where: Record<string, unknown> = { tags };
  const filters: Filter[] = [tagFilter];
  const extra = pick(['none', 'topic', 'not', 'range', 'or'] as const);
  if (extra === 'topic') {
    const topic = pick(['t1', 't2', 't3']);
    where.topic = topic;
    filters.push((row) => row.topic === topic);
  } else if (extra === 'not') {
    const topic = pick(['t1', 't2']);
    where.topic = { not: topic };
    filters.push((row) => row.topic !== topic);
  } else if (extra === 'range') {
    const min = Math.floor(next() * 50);
    where.score = { gte: min, lt: min + 30 };
    filters.push((row) => row.score !== undefined && row.score >= min && row.score < min + 30);
  } else if (extra === 'or' && depth === 0) {
    const [a, fa] = randomWhere(1);
    const topic = pick(['t1', 't2', 't3']);
    where.OR = [a, { topic }];
    filters.push((row) => fa(row) || row.topic === topic);
  }
  return [where, (row) => filters.every((filter) => filter(row))];
}

describe('tag indexes against an oracle', () => {
  const rows: Row[] = [];

  beforeAll(async () => {
    const inputs = Array.from({ length: 150 }, () => ({
      topic: next() < 0.1 ? undefined : pick(['t1', 't2', 't3']),
      score: next() < 0.1 ? undefined : Math.floor(next() * 80),
      tags: next() < 0.15 ? undefined : someOf(4),
    }));
    const { saved } = await Card.saveMany(inputs.slice(0, 100));
    for (const input of inputs.slice(100)) saved.push(await Card.create(input));
    saved.forEach((card, i) => rows.push({ id: card.id, ...inputs[i] }));
    // some writes after: entries move with each
    for (const row of rows.slice(0, 30)) {
      const card = (await Card.find(row.id))!;
      card.tags = next() < 0.2 ? [] : someOf(3);
      row.tags = card.tags;
      await card.save();
    }
    for (const row of rows.splice(30, 10)) await (await Card.find(row.id))!.remove();
  });

  it('answers every random where as the filter over all objects does', async () => {
    for (let i = 0; i < 250; i++) {
      const [where, filter] = randomWhere();
      const want = rows
        .filter(filter)
        .map((row) => row.id)
        .sort();
      const got = (await Card.findIds(where as never)).sort();
      expect({ where, got }).toEqual({ where, got: want });
      expect(await Card.count(where as never)).toBe(want.length);
    }
    const counts: Record<string, number> = {};
    for (const row of rows) for (const element of new Set(row.tags ?? [])) counts[element] = (counts[element] ?? 0) + 1;
    expect(await Card.countBy('tags')).toEqual(counts);
    expect((await Card.check()).violations).toEqual([]);
  });

  it('check() finds damaged tag and compound entries, repair() puts them right', async () => {
    const base = `${redis.prefix}:{Card}`;
    const tagged = rows.find((row) => (row.tags?.length ?? 0) > 0)!;
    const untagged = rows.find((row) => (row.tags?.length ?? 0) === 0)!;
    await redis.raw.sRem(`${base}:idx:tags:${tagged.tags![0]}`, tagged.id);
    await redis.raw.sAdd(`${base}:idx:tags:never`, tagged.id);
    await redis.raw.sRem(`${base}:nil:tags`, untagged.id);
    await redis.raw.del(`${base}:lex:topic+score`);
    const found = await Card.check();
    const kinds = new Set(found.violations.map((violation) => violation.kind));
    expect(kinds).toEqual(new Set(['missingEntry', 'wrongEntry']));
    await Card.repair();
    expect((await Card.check()).violations).toEqual([]);
    expect((await Card.findIds({ tags: { has: 'never' } } as never)).length).toBe(0);
    // keys deleted whole: repair() writes every object's entries again; reindex() finds nothing to change
    for (const key of await keysUnder(redis.raw, `${base}:idx:tags`)) await redis.raw.del(key);
    await redis.raw.del([`${base}:nil:tags`, `${base}:lex:topic+score`]);
    expect((await Card.check()).violations.length).toBeGreaterThan(0);
    await Card.repair();
    expect(await Card.reindex()).toMatchObject({ added: [], dropped: [], rebuilt: [], recomputed: 0 });
    expect((await Card.check()).violations).toEqual([]);
    const want = rows.filter((row) => row.tags?.includes('a')).map((row) => row.id);
    expect((await Card.findIds({ tags: { has: 'a' } })).sort()).toEqual(want.sort());
    const ordered = rows
      .filter((row) => row.topic === 't1' && row.score !== undefined)
      .sort((x, y) => x.score! - y.score! || Number(x.id) - Number(y.id))
      .map((row) => row.id);
    expect(await Card.findIds({ topic: 't1', score: { gte: 0 } }, { orderBy: { score: 'asc' } })).toEqual(ordered);
  });

  it('refuses an element that is no string with a ValidationError, and writes nothing', async () => {
    const card = await Card.create({ topic: 't9', tags: ['ok'] });
    const before = (await keysUnder(redis.raw, redis.prefix)).sort();
    for (const tags of [['a', 1], ['a', null], { a: 1 }, 'a', [['a']]]) {
      const error = await Card.create({ topic: 't9', tags: tags as never }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors[0].property).toBe('tags');
    }
    card.tags = ['ok', 2 as never];
    await expect(card.save()).rejects.toThrow(ValidationError);
    await expect(Card.update(card.id, { tags: [3 as never] })).rejects.toThrow(ValidationError);
    expect((await keysUnder(redis.raw, redis.prefix)).sort()).toEqual(before);
    expect(await Card.findIds({ topic: 't9' })).toEqual([card.id]);
    expect((await Card.find(card.id))!.tags).toEqual(['ok']);
  });
});

describe('a tag model with expiry and a cap', () => {
  it('keeps tag entries with saveMany, expiry, sweep and the cap', async () => {
    const { saved } = await Flash.saveMany([
      { score: 1, tags: ['a'] },
      { score: 2, tags: ['a', 'b'] },
      { score: 3, tags: [] },
      { score: 4, tags: ['b'] },
    ]);
    const ids = async (where: object) => (await Flash.findIds(where as never)).sort();
    expect(await ids({ tags: { has: 'a' } })).toEqual([saved[0].id, saved[1].id].sort());
    await saved[1].expire(0.001);
    await sleep(20);
    // invisible at once; a query sweeps it, with its entries
    expect(await ids({ tags: { has: 'a' } })).toEqual([saved[0].id]);
    expect(await ids({ tags: { hasAny: ['b'] } })).toEqual([saved[3].id]);
    await Flash.sweep();
    expect(await redis.raw.sMembers(`${redis.prefix}:{Flash}:idx:tags:b`)).toEqual([saved[3].id]);
    // the cap keeps the top 4 by score: the lowest goes with its entries
    const top = await Flash.create({ score: 9, tags: ['a', 'c'] });
    const more = await Flash.create({ score: 8, tags: ['c'] });
    expect(await Flash.count()).toBe(4);
    expect(await ids({ tags: { has: 'a' } })).toEqual([top.id]);
    expect(await ids({ tags: { has: 'c' } })).toEqual([top.id, more.id].sort());
    expect(await ids({ tags: { exists: false } })).toEqual([saved[2].id]);
    expect((await Flash.check()).violations).toEqual([]);
  });
});

import { Attr, BaseEntity, Index, Model, QueryError, SortableString, Where } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Compound ordered indexes (`@Index(['score', 'createdAt'])`), against an oracle: random objects, and each query
 * compared with the same filter and order computed over all of them in plain TypeScript.
 */

@Model()
@Index(['score', 'createdAt'])
@Index(['group', 'name', 'score'])
class Entry extends BaseEntity {
  @Attr() score?: number;
  @Attr() createdAt?: Date;
  @Attr() group?: string;
  @Attr() name?: SortableString;
  @Attr() @Index() kind?: string;
}

useTestRedis();

interface Row {
  id: string;
  score?: number;
  createdAt?: Date;
  group?: string;
  name?: string;
  kind?: string;
}
const rows: Row[] = [];

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(async () => {
  const next = random(51);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  for (let i = 0; i < 120; i++) {
    const input = {
      score: next() < 0.1 ? undefined : pick([-2.5, -0, 0, 1, 3, 3.25, 1e6]),
      createdAt:
        next() < 0.1 ? undefined : new Date(Date.UTC(2024, 0, 1) + Math.floor(next() * 20) * 3_600_000 - 1e12 * (next() < 0.1 ? 1 : 0)),
      group: pick(['a', 'b', 'a\0b']),
      name: next() < 0.1 ? undefined : pick(['', 'ann', 'anna', 'bob', 'é', 'x\0y']),
      kind: pick(['k1', 'k2']),
    };
    const entry = await Entry.create(input);
    rows.push({ id: entry.id, ...input });
  }
});

type Key = keyof Omit<Row, 'id'>;
const bytesOf = (value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : undefined);
function compare(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return (a === undefined ? 1 : 0) - (b === undefined ? 1 : 0);
  if (typeof a === 'string') return Math.sign(Buffer.compare(bytesOf(a)!, bytesOf(b)!));
  const x = a instanceof Date ? a.getTime() : (a as number);
  const y = b instanceof Date ? b.getTime() : (b as number);
  return x < y ? -1 : x > y ? 1 : 0;
}
function expected(filter: (row: Row) => boolean, order: Array<[Key, 'asc' | 'desc']>): string[] {
  const last = order[order.length - 1][1];
  return rows
    .filter(filter)
    .sort((a, b) => {
      for (const [key, direction] of order) {
        const c = compare(a[key], b[key]);
        if (c !== 0) return direction === 'desc' ? -c : c;
      }
      const c = Number(a.id) - Number(b.id);
      return last === 'desc' ? -c : c;
    })
    .map((row) => row.id);
}
const inRange = (value: unknown, min: number, max: number) => value !== undefined && compare(value, min) >= 0 && compare(value, max) <= 0;

describe('compound indexes', () => {
  it('orders by several attributes, each in its own direction', async () => {
    for (const directions of [
      ['asc', 'asc'],
      ['desc', 'asc'],
      ['asc', 'desc'],
      ['desc', 'desc'],
    ] as const) {
      const orderBy = [{ score: directions[0] }, { createdAt: directions[1] }];
      const want = expected(
        () => true,
        [
          ['score', directions[0]],
          ['createdAt', directions[1]],
        ],
      );
      expect(await Entry.findIds(undefined, { orderBy })).toEqual(want);
      expect(await Entry.findIds(undefined, { orderBy, offset: 7, limit: 11 })).toEqual(want.slice(7, 18));
    }
  });

  it('answers equality on the leading parts and a range on the next', async () => {
    for (const score of [3, 0, -2.5]) {
      const min = new Date(Date.UTC(2024, 0, 1, 3));
      const max = new Date(Date.UTC(2024, 0, 1, 12));
      const where = { score, createdAt: { gte: min, lt: max } };
      const want = expected(
        (row) => compare(row.score, score) === 0 && inRange(row.createdAt, min.getTime(), max.getTime() - 1),
        [['createdAt', 'desc']],
      );
      expect(await Entry.findIds(where, { orderBy: { createdAt: 'desc' } })).toEqual(want);
      expect(await Entry.count(where)).toBe(want.length);
      expect((await Entry.findIds(where)).sort((a, b) => Number(a) - Number(b))).toEqual([...want].sort((a, b) => Number(a) - Number(b)));
    }
    for (const group of ['a', 'a\0b']) {
      const where = { group, name: { gt: 'ann' } };
      const want = expected(
        (row) => row.group === group && row.name !== undefined && compare(row.name, 'ann') > 0,
        [
          ['name', 'asc'],
          ['score', 'desc'],
        ],
      );
      expect(await Entry.findIds(where, { orderBy: [{ name: 'asc' }, { score: 'desc' }] })).toEqual(want);
    }
  });

  it('combines with other conditions and OR', async () => {
    const where = { kind: 'k1', score: { gt: 0, lte: 3.25 } };
    const want = expected(
      (row) => row.kind === 'k1' && inRange(row.score, 0, 3.25) && row.score !== 0,
      [
        ['score', 'asc'],
        ['createdAt', 'desc'],
      ],
    );
    expect(await Entry.findIds(where, { orderBy: [{ score: 'asc' }, { createdAt: 'desc' }] })).toEqual(want);
    const or: Where<Entry> = { OR: [{ score: 1, createdAt: { lt: new Date(Date.UTC(2024, 0, 1, 10)) } }, { kind: 'k2' }] };
    const wantOr = expected(
      (row) =>
        (compare(row.score, 1) === 0 && row.createdAt !== undefined && row.createdAt.getTime() < Date.UTC(2024, 0, 1, 10)) ||
        row.kind === 'k2',
      [
        ['score', 'desc'],
        ['createdAt', 'asc'],
      ],
    );
    expect(await Entry.findIds(or, { orderBy: [{ score: 'desc' }, { createdAt: 'asc' }] })).toEqual(wantOr);
  });

  it('moves entries with every write and passes check()', async () => {
    const entry = (await Entry.findOneBy({ score: 3 }))!;
    entry.score = 42;
    await entry.save();
    rows.find((row) => row.id === entry.id)!.score = 42;
    expect(await Entry.findIds({ score: 42, createdAt: { gte: new Date(0) } })).toEqual(entry.createdAt ? [entry.id] : []);
    await entry.remove();
    rows.splice(
      rows.findIndex((row) => row.id === entry.id),
      1,
    );
    expect(await Entry.findIds({ score: 42 }, { orderBy: { createdAt: 'asc' } })).toEqual([]);
    expect((await Entry.check()).violations).toEqual([]);
  });

  it('pages with findPage in one direction, with not and exists beside the window', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const orderBy = [{ score: direction }, { createdAt: direction }];
      const want = expected(
        (row) => row.kind !== 'k2',
        [
          ['score', direction],
          ['createdAt', direction],
        ],
      );
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await Entry.findPage({ kind: { not: 'k2' } }, { orderBy, limit: 13, ...(after ? { after } : {}) });
        seen.push(...page.items.map((entry) => entry.id));
        if (!page.next) break;
        after = page.next;
      }
      expect(seen).toEqual(want);
    }
    const window = { score: 3, createdAt: { exists: true, gte: new Date(Date.UTC(2024, 0, 1, 5)) } };
    const first = await Entry.findPage(window, { orderBy: { createdAt: 'desc' }, limit: 2 });
    const rest = first.next ? await Entry.findPage(window, { orderBy: { createdAt: 'desc' }, limit: 100, after: first.next }) : undefined;
    const wanted = expected(
      (row) => compare(row.score, 3) === 0 && row.createdAt !== undefined && row.createdAt.getTime() >= Date.UTC(2024, 0, 1, 5),
      [['createdAt', 'desc']],
    );
    expect([...first.items, ...(rest?.items ?? [])].map((entry) => entry.id)).toEqual(wanted);
    await expect(Entry.findPage(undefined, { orderBy: [{ score: 'desc' }, { createdAt: 'asc' }], limit: 5 })).rejects.toThrow(
      /pages in one direction/,
    );
  });

  it('refuses what no index answers', async () => {
    await expect(Entry.findIds(undefined, { orderBy: [{ createdAt: 'asc' }, { score: 'asc' }] })).rejects.toThrow(QueryError);
    await expect(Entry.findIds({ createdAt: { gt: new Date(0) } })).rejects.toThrow(QueryError);
  });
});

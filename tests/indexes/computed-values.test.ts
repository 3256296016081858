import {
  ArgumentError,
  Attr,
  BaseEntity,
  Computed,
  Index,
  Model,
  QueryError,
  Unique,
  UniqueConstraintError,
  ValidationError,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/** Computed values (`@Computed() @Index() get domain()`): stored at each write, indexed like an attribute, read-only. */

@Model()
class Member extends BaseEntity {
  @Attr() email?: string;
  @Attr() first?: string;
  @Attr() last?: string;
  @Attr() points?: number;

  // `string | undefined` is emitted as Object: the type is given
  @Computed({ type: 'string' }) @Index() get domain(): string | undefined {
    return this.email?.split('@')[1];
  }

  @Computed({ type: 'string' }) @Unique({ caseInsensitive: true }) get handle(): string | undefined {
    return this.first && this.last ? `${this.first}.${this.last}` : undefined;
  }

  // a getter declared as a number: the type is read from the declaration
  @Computed() @Index() get rank(): number {
    return Math.floor((this.points ?? -10) / 10);
  }
}

const redis = useTestRedis();
const ids = async (where: object, orderBy?: object) => Member.findIds(where as never, orderBy ? { orderBy: orderBy as never } : undefined);

describe('computed values', () => {
  it('stores the getter at each save and create, and answers where, orderBy and uniques', async () => {
    const a = await Member.create({ email: 'ann@a.io', first: 'Ann', last: 'Lee', points: 35 });
    const b = Member.build({ email: 'bob@b.io', points: 12 });
    await b.save();
    const c = await Member.create({ email: 'cy@a.io', points: 99 });
    expect(await redis.raw.hGet(`${redis.prefix}:{Member}:obj:${a.id}`, 'domain')).toBe('a.io');
    expect((await ids({ domain: 'a.io' })).sort()).toEqual([a.id, c.id]);
    expect(await ids({}, { rank: 'desc' })).toEqual([c.id, a.id, b.id]);
    expect(await ids({ rank: { gte: 3 } }, { rank: 'asc' })).toEqual([a.id, c.id]);
    await expect(Member.create({ email: 'x@z.io', first: 'ANN', last: 'lee' })).rejects.toThrow(UniqueConstraintError);
    // an update stores the new value and moves its entries
    a.email = 'ann@b.io';
    a.points = 5;
    await a.save();
    expect((await ids({ domain: 'b.io' })).sort()).toEqual([a.id, b.id]);
    expect(await ids({ domain: 'a.io' })).toEqual([c.id]);
    expect(await ids({}, { rank: 'asc' })).toEqual([a.id, b.id, c.id]);
    const loaded = (await Member.find(a.id))!;
    expect(loaded.domain).toBe('b.io');
    expect(loaded.toJSON()).toMatchObject({ domain: 'b.io', handle: 'Ann.Lee' });
    // a value the getter no longer gives is removed with its entries
    loaded.email = undefined;
    await loaded.save();
    expect(await redis.raw.hGet(`${redis.prefix}:{Member}:obj:${a.id}`, 'domain')).toBeNull();
    expect((await ids({ domain: { exists: false } })).sort()).toEqual([a.id]);
    expect((await Member.check()).violations).toEqual([]);
  });

  it('stores them with saveMany, and reindex() recomputes stale stored values', async () => {
    const made = (await Member.saveMany([{ email: 'd@many.io', points: 1 }, Member.build({ email: 'e@many.io', points: 101 })])).saved;
    expect((await ids({ domain: 'many.io' })).sort()).toEqual(made.map((m) => m.id).sort());
    // a stored value the getter would not give (as after a change of the getter's code)
    await redis.raw.hSet(`${redis.prefix}:{Member}:obj:${made[0].id}`, 'domain', 'old.io');
    await Member.reindex();
    expect(await redis.raw.hGet(`${redis.prefix}:{Member}:obj:${made[0].id}`, 'domain')).toBe('many.io');
    expect((await ids({ domain: 'many.io' })).sort()).toEqual(made.map((m) => m.id).sort());
    expect(await ids({ domain: 'old.io' })).toEqual([]);
    expect((await Member.check()).violations).toEqual([]);
  });

  it('is read-only: not given to build, create or update, and not assigned', async () => {
    const error = await Member.create({ email: 'f@a.io', domain: 'forged.io' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors[0].constraints).toEqual({
      computed: "Member.domain is computed (its getter's value): it cannot be given",
    });
    expect(await ids({ domain: 'forged.io' })).toEqual([]);
    const member = await Member.create({ email: 'g@a.io' });
    expect(() => {
      (member as { domain?: string }).domain = 'x';
    }).toThrow(TypeError);
    await expect(Member.update(member.id, { points: 3 })).rejects.toThrow(ArgumentError);
    await expect(Member.findIds({ domain: { startsWith: 'a' } } as never)).rejects.toThrow(QueryError);
  });
});

import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * An attribute with both @Unique and @Index: equality on a case-insensitive unique attribute reads the unique
 * hash, so it ignores case whatever other index the attribute has; a plain @Unique with a set @Index answers
 * equality from the set, exactly (docs/indexes-and-queries.md#unique-values).
 */

@Model()
class UwiFolded extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) @Index() email?: string;
  @Attr() @Unique({ caseInsensitive: true }) @Index({ sortable: true }) handle?: SortableString;
}

@Model()
class UwiExact extends BaseEntity {
  @Attr() @Unique() @Index() code?: string;
}

useTestRedis();

describe('@Unique({ caseInsensitive: true }) with @Index()', () => {
  it('equality and in ignore case', async () => {
    const ann = await UwiFolded.create({ email: 'Ann@Example.com', handle: 'Ann' });
    const bob = await UwiFolded.create({ email: 'bob@example.com', handle: 'bob' });
    expect((await UwiFolded.findBy({ email: 'ann@example.com' })).map((user) => user.id)).toEqual([ann.id]);
    expect(await UwiFolded.findIds({ email: { in: ['ANN@EXAMPLE.COM', 'Bob@Example.com'] } })).toEqual([ann.id, bob.id]);
    expect(await UwiFolded.count({ email: 'ANN@example.COM' })).toBe(1);
    expect(await UwiFolded.findIds({ handle: 'ANN' })).toEqual([ann.id]);
  });

  it('a range or startsWith on the sortable index compares the stored values, case included', async () => {
    const ids = await UwiFolded.findIds({ handle: { startsWith: 'A' } });
    expect((await UwiFolded.findMany(ids)).map((user) => user?.handle)).toEqual(['Ann']);
    expect(await UwiFolded.findIds({ handle: { startsWith: 'a' } })).toEqual([]);
  });
});

describe('@Unique() with @Index()', () => {
  it('equality compares exactly', async () => {
    const upper = await UwiExact.create({ code: 'ABC' });
    const lower = await UwiExact.create({ code: 'abc' });
    expect(await UwiExact.findIds({ code: 'ABC' })).toEqual([upper.id]);
    expect(await UwiExact.findIds({ code: 'abc' })).toEqual([lower.id]);
    expect(await UwiExact.findIds({ code: 'Abc' })).toEqual([]);
    expect(await UwiExact.count({ code: 'abc' })).toBe(1);
  });
});

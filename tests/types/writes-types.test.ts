import { Attr, BaseEntity, Index, Model, QueryError, SchemaError, SortableString, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses in composite uniques and Model.rank. ts-jest type-checks this file: every
 * `// @ts-expect-error` line must fail to compile (an unused one fails the run), and every other line must
 * compile. Each test also runs, and asserts what happens at runtime where the types were bypassed.
 */

@Model()
@Unique(['userId', 'channelId'])
class TyWrSubscription extends BaseEntity {
  @Attr() @Index() userId?: number;
  @Attr() @Index({ sortable: true }) channelId?: SortableString;
  @Attr() @Index({ scope: 'channelId' }) joined?: Date;
  @Attr() note?: string;
}

useTestRedis();

describe('composite uniques', () => {
  it('name properties of the class; any other name fails to compile', () => {
    expect(() => {
      @Model()
      // @ts-expect-error `chanelId` is no property of the class
      @Unique(['userId', 'chanelId'])
      class TyWrBad extends BaseEntity {
        @Attr() userId?: number;
        @Attr() channelId?: string;
      }
      return TyWrBad;
    }).toThrow(SchemaError);
    // @ts-expect-error @Unique takes at least one name
    expect(() => Unique([])).not.toThrow();
  });
});

describe('Model.rank', () => {
  it('takes an ordered attribute and a scope attribute', async () => {
    await TyWrSubscription.create({ userId: 1, channelId: 'a' as SortableString, joined: new Date(1) });
    expect(await TyWrSubscription.rank('1', { by: 'userId', order: 'desc' })).toBe(0);
    expect(await TyWrSubscription.rank('1', { by: 'channelId' })).toBe(0);
    expect(await TyWrSubscription.rank('1', { by: 'joined', per: 'channelId' })).toBe(0);
    // @ts-expect-error note is a plain string: it has no order
    await expect(TyWrSubscription.rank('1', { by: 'note' })).rejects.toThrow(QueryError);
    // @ts-expect-error no such attribute
    await expect(TyWrSubscription.rank('1', { by: 'nope' })).rejects.toThrow(QueryError);
    // @ts-expect-error per names an attribute
    await expect(TyWrSubscription.rank('1', { by: 'joined', per: 'nope' })).rejects.toThrow(QueryError);
    // @ts-expect-error order is 'asc' or 'desc'
    await expect(TyWrSubscription.rank('1', { by: 'userId', order: 'up' })).rejects.toThrow();
  });
});

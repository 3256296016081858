import {
  Attr,
  BaseEntity,
  Computed,
  Index,
  Model,
  QueryError,
  SchemaError,
  SortableString,
  Unique,
  ValidationError,
  Where,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * What the compiler accepts and refuses for tag indexes (`@Index({ each: true })`, `has`, `hasAny`, `hasAll`),
 * computed values (`@Computed()` getters) and compound indexes (`@Index([...])` on the class, `orderBy` lists). ts-jest type-checks this file: every
 * `// @ts-expect-error` line must fail to compile, and every other line must compile. Each test also runs.
 */

@Model()
@Index(['score', 'at'])
class Tagged extends BaseEntity {
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
  @Attr({ type: 'json' }) meta?: { a: number };
  @Attr() @Index() title?: string;
  @Attr() score?: number;
  @Attr() at?: Date;
  @Attr() name?: SortableString;
}

@Model()
class Priced extends BaseEntity {
  @Attr() net?: number;
  @Computed() @Index() get gross(): number {
    return (this.net ?? 0) * 1.2;
  }
  @Computed({ type: 'string' }) @Unique() get code(): string | undefined {
    return this.net === undefined ? undefined : `p${this.net}`;
  }
}

useTestRedis();

describe('tag and compound index types', () => {
  it('takes has, hasAny and hasAll on arrays of strings only', async () => {
    const fine: Where<Tagged>[] = [
      { tags: { has: 'x' } },
      { tags: { hasAny: ['x', 'y'] } },
      { tags: { hasAll: ['x'] }, title: 'a' },
      { OR: [{ tags: { has: 'x' } }, { title: 'b' }] },
    ];
    expect(fine).toHaveLength(4);
    // @ts-expect-error has takes one string
    const wrongElement: Where<Tagged> = { tags: { has: 1 } };
    // @ts-expect-error has applies to arrays of strings, not to a plain string
    const onString: Where<Tagged> = { title: { has: 'x' } };
    // @ts-expect-error nor to a JSON object
    const onObject: Where<Tagged> = { meta: { has: 'x' } };
    await expect(Tagged.findIds(onString)).rejects.toThrow(QueryError);
    expect([wrongElement, onObject]).toHaveLength(2);
  });

  it('puts @Index({ each: true }) on arrays of strings only (SchemaError at runtime otherwise)', () => {
    expect(() => {
      @Model()
      class EachOnString extends BaseEntity {
        // @ts-expect-error each indexes the elements of an array of strings
        @Attr() @Index({ each: true }) title?: string;
      }
      return EachOnString;
    }).toThrow(SchemaError);
    expect(() => {
      @Model()
      class EachOnNumbers extends BaseEntity {
        // @ts-expect-error an array of numbers is not an array of strings
        @Attr({ type: 'json' }) @Index({ each: true }) ids?: number[];
      }
      return EachOnNumbers;
    }).not.toThrow();
  });

  it('names attributes of the class in @Index([...]), and takes orderBy lists', async () => {
    expect(() => {
      @Model()
      // @ts-expect-error missing is no property of the class
      @Index(['score', 'missing'])
      class CompoundMissing extends BaseEntity {
        @Attr() score?: number;
      }
      return CompoundMissing;
    }).toThrow(SchemaError);
    expect(() => {
      @Model()
      // @ts-expect-error a compound index orders numbers, Dates and strings
      @Index(['score', 'flag'])
      class CompoundBoolean extends BaseEntity {
        @Attr() score?: number;
        @Attr() flag?: boolean;
      }
      return CompoundBoolean;
    }).toThrow(SchemaError);
    expect(await Tagged.findIds(undefined, { orderBy: [{ score: 'desc' }, { at: 'asc' }] })).toEqual([]);
    // @ts-expect-error orderBy names attributes of the model
    await expect(Tagged.findIds(undefined, { orderBy: [{ nope: 'asc' }] })).rejects.toThrow(QueryError);
  });

  it('takes computed values in where and orderBy, never as input', async () => {
    const where: Where<Priced> = { gross: { gte: 10 }, code: 'p10' };
    const priced = await Priced.create({ net: 10 });
    expect(await Priced.findIds(where, { orderBy: { gross: 'desc' } })).toEqual([priced.id]);
    // @ts-expect-error a computed value is read-only: not given to create
    await expect(Priced.create({ net: 1, gross: 3 })).rejects.toThrow(ValidationError);
    // @ts-expect-error nor to build
    expect(() => Priced.build({ code: 'x' })).toThrow(ValidationError);
    // @ts-expect-error nor assigned
    expect(() => (priced.gross = 1)).toThrow(TypeError);
    expect(() => {
      @Model()
      class ComputedMethod extends BaseEntity {
        // @ts-expect-error @Computed goes on a getter, not on a method
        @Computed() total(): number {
          return 1;
        }
      }
      return ComputedMethod;
    }).toThrow(SchemaError);
  });
});

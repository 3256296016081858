import { Attr, BaseEntity, Index, Model, SchemaError, SortableString } from '../../src';

/**
 * What the compiler accepts and refuses in `@Index` options. ts-jest type-checks this file: every
 * `// @ts-expect-error` line must fail to compile (an unused one fails the run), and every other line must
 * compile. Each test also runs, and asserts what happens at runtime.
 */

describe('@Index({ sortable: true })', () => {
  it('goes on a property declared as a string (and SchemaError at runtime otherwise)', () => {
    @Model()
    class TypedSortable extends BaseEntity {
      @Attr() @Index({ sortable: true }) name?: SortableString;
      @Attr() @Index({ sortable: true }) code!: string;
      @Attr() owner?: string;
      @Attr({ type: 'string' }) @Index({ sortable: true, scope: 'owner' }) title?: SortableString | null;
      @Attr() @Index() rank?: number;
      @Attr() @Index({ sortable: false }) score?: number;
      @Attr() @Index({ scope: 'owner' }) at?: Date;
    }
    expect(TypedSortable.build({ name: 'Ann' }).name).toBe('Ann');

    expect(() => {
      @Model()
      class TypedSortableNumber extends BaseEntity {
        // @ts-expect-error a number is always ordered: @Index() alone
        @Attr() @Index({ sortable: true }) rank?: number;
      }
      return TypedSortableNumber;
    }).toThrow(SchemaError);
    expect(() => {
      @Model()
      class TypedSortableDate extends BaseEntity {
        // @ts-expect-error a Date is always ordered: @Index() alone
        @Attr() @Index({ sortable: true }) at?: Date;
      }
      return TypedSortableDate;
    }).toThrow(/TypedSortableDate\.at: sortable applies to string attributes; a Date is always ordered/);
    expect(() => {
      @Model()
      class TypedSortableScoped extends BaseEntity {
        @Attr() owner?: string;
        // @ts-expect-error nor with a scope
        @Attr() @Index({ sortable: true, scope: 'owner' }) rank?: number;
      }
      return TypedSortableScoped;
    }).toThrow(/TypedSortableScoped\.rank: sortable applies to string attributes; a number is always ordered/);
    expect(() => {
      @Model()
      class TypedSortableBoolean extends BaseEntity {
        // @ts-expect-error a boolean has no order
        @Attr() @Index({ sortable: true }) done?: boolean;
      }
      return TypedSortableBoolean;
    }).toThrow(/TypedSortableBoolean\.done: sortable applies to string attributes/);
  });
});

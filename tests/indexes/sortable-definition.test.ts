import { Attr, BaseEntity, Index, IndexOptions, Model } from '../../src';
import { descriptorOf } from '../../src/model/model-registry';
import { schemaErrorOf } from '../support/schema-error-of';

/**
 * `sortable` asks for a lexicographic index of a string. Numbers and Dates are always ordered, so on them it
 * can only be a mistake: a SchemaError when the class is defined, naming the class and the attribute, like
 * `sortable` on any other type that is not a string. The options come from an IndexOptions variable, which
 * the compiler accepts on any property (tests/types/index-types.test.ts covers the literal form).
 */

const sortable: IndexOptions = { sortable: true };

describe('@Index({ sortable: true }) on an attribute that is not a string', () => {
  it('a number', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SortableNumber extends BaseEntity {
        @Attr() @Index(sortable) rank?: number;
      }
      return SortableNumber;
    });
    expect(error.message).toBe(
      'SortableNumber.rank: sortable applies to string attributes; a number is always ordered, so @Index() alone gives ranges and orderBy',
    );
  });

  it('a Date', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SortableDate extends BaseEntity {
        @Attr() @Index(sortable) at?: Date;
      }
      return SortableDate;
    });
    expect(error.message).toBe(
      'SortableDate.at: sortable applies to string attributes; a Date is always ordered, so @Index() alone gives ranges and orderBy',
    );
  });

  it('a scoped number', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SortableScopedNumber extends BaseEntity {
        @Attr() owner?: string;
        @Attr() @Index({ ...sortable, scope: 'owner' }) rank?: number;
      }
      return SortableScopedNumber;
    });
    expect(error.message).toMatch(/^SortableScopedNumber\.rank: sortable applies to string attributes; a number is always ordered/);
  });

  it('names the class that declares the attribute, for an inherited one', () => {
    class SortableBase extends BaseEntity {
      @Attr() @Index(sortable) at?: Date;
    }
    const error = schemaErrorOf(() => {
      @Model()
      class SortableChild extends SortableBase {}
      return SortableChild;
    });
    expect(error.message).toMatch(/^SortableBase\.at: sortable applies to string attributes; a Date is always ordered/);
  });

  it('a boolean, as before', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SortableBoolean extends BaseEntity {
        @Attr() @Index(sortable) done?: boolean;
      }
      return SortableBoolean;
    });
    expect(error.message).toBe('SortableBoolean.done: sortable applies to string attributes (numbers and Dates are always ordered)');
  });

  it('sortable: false on a number or Date is a plain sorted index', () => {
    @Model()
    class SortableFalse extends BaseEntity {
      @Attr() @Index({ sortable: false }) rank?: number;
      @Attr() @Index({ sortable: false }) at?: Date;
      @Attr() @Index({ sortable: true }) name?: string;
    }
    expect(descriptorOf(SortableFalse).indexes.map((index) => [index.kind, index.attribute.property])).toEqual([
      ['score', 'rank'],
      ['score', 'at'],
      ['lex', 'name'],
    ]);
  });
});

import { Attr, BaseEntity, Index, Model, SchemaError } from '../../src';
import type { CapOptions, ModelOptions } from '../../src';

/**
 * What the compiler accepts and refuses in a cap per value: `by` and `per` must name properties of the class that
 * `@Model` decorates. ts-jest type-checks this file: every `// @ts-expect-error` line must fail to compile (an
 * unused one fails the run), and every other line must compile. Each case also runs, and asserts what happens
 * at runtime where the types were bypassed.
 */

describe('a cap per value', () => {
  it('names properties of the class', () => {
    @Model({ cap: { by: 'at', keep: 10, per: 'userId' } })
    class TyCapLogin extends BaseEntity {
      @Attr() userId?: string;
      @Attr() @Index({ scope: 'userId' }) at?: number;
    }
    expect(TyCapLogin.name).toBe('TyCapLogin');
  });

  it('fails to compile with a `per` or `by` that is no property of the class', () => {
    expect(() => {
      // @ts-expect-error `user` is no property of the class
      @Model({ cap: { by: 'at', keep: 10, per: 'user' } })
      class TyCapBadPer extends BaseEntity {
        @Attr() userId?: string;
        @Attr() @Index({ scope: 'userId' }) at?: number;
      }
      return TyCapBadPer;
    }).toThrow(SchemaError);
    expect(() => {
      // @ts-expect-error `when` is no property of the class
      @Model({ cap: { by: 'when', keep: 10, per: 'userId' } })
      class TyCapBadBy extends BaseEntity {
        @Attr() userId?: string;
        @Attr() @Index({ scope: 'userId' }) at?: number;
      }
      return TyCapBadBy;
    }).toThrow(SchemaError);
  });

  it('takes options built apart, whose names are checked when the class is defined', () => {
    const cap: CapOptions = { by: 'at', keep: 2, per: 'room' };
    const options: ModelOptions = { cap };
    expect(() => {
      @Model(options)
      class TyCapApart extends BaseEntity {
        @Attr() userId?: string;
        @Attr() @Index({ scope: 'userId' }) at?: number;
      }
      return TyCapApart;
    }).toThrow('TyCapApart: cap.per "room" is not an attribute of the model');
    // @ts-expect-error keep is required
    const partial: CapOptions = { by: 'at', per: 'userId' };
    expect(partial.keep).toBeUndefined();
  });
});

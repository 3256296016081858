import {
  AfterLoad,
  Attr,
  BaseEntity,
  BeforeSave,
  BelongsTo,
  Counter,
  DynamicAttrs,
  HasMany,
  Index,
  ManyToMany,
  Model,
  SchemaError,
  Unique,
  Version,
} from '../../src';

/**
 * What the compiler refuses in decorator options: a name a decorator does not take (a misspelt one) fails to
 * compile, as in every other options object of the library, and is a SchemaError when the class is defined
 * (from JavaScript, or past a cast). ts-jest type-checks this file: every `// @ts-expect-error` line must fail
 * to compile (an unused one fails the run), and every other line must compile.
 */

function refused(define: () => unknown, message: string): void {
  expect(define).toThrow(SchemaError);
  expect(define).toThrow(message);
}

describe('option names a decorator does not take', () => {
  it('@Model and its cap', () => {
    refused(() => {
      // @ts-expect-error `ttll` is not an option of @Model
      @Model({ ttll: 5 })
      class TyOptTtl extends BaseEntity {
        @Attr() s?: string;
      }
      return TyOptTtl;
    }, 'TyOptTtl: unknown @Model option "ttll"');
    refused(() => {
      // @ts-expect-error nor `expireable`
      @Model({ expireable: true })
      class TyOptExpirable extends BaseEntity {
        @Attr() s?: string;
      }
      return TyOptExpirable;
    }, 'TyOptExpirable: unknown @Model option "expireable"');
    refused(() => {
      // @ts-expect-error `ordr` is not an option of cap
      @Model({ cap: { by: 's', keep: 1, ordr: 'asc' } })
      class TyOptCap extends BaseEntity {
        @Attr() @Index() s?: number;
      }
      return TyOptCap;
    }, 'TyOptCap: unknown cap option "ordr"');
  });

  it('@Attr, @Index and @Unique', () => {
    refused(() => {
      @Model()
      class TyOptAttr extends BaseEntity {
        // @ts-expect-error `tpye` is not an option of @Attr
        @Attr({ tpye: 'number' }) n = 0;
      }
      return TyOptAttr;
    }, 'TyOptAttr.n: unknown @Attr option "tpye"');
    refused(() => {
      @Model()
      class TyOptIndex extends BaseEntity {
        // @ts-expect-error `sortabel` is not an option of @Index
        @Attr() @Index({ sortabel: true }) s?: string;
      }
      return TyOptIndex;
    }, 'TyOptIndex.s: unknown @Index option "sortabel"');
    refused(() => {
      @Model()
      class TyOptUnique extends BaseEntity {
        // @ts-expect-error `caseinsensitive` is not an option of @Unique
        @Attr() @Unique({ caseinsensitive: true }) s?: string;
      }
      return TyOptUnique;
    }, 'TyOptUnique.s: unknown @Unique option "caseinsensitive"');
  });

  it('@Counter, @Version, @DynamicAttrs and the hooks take none', () => {
    refused(() => {
      @Model()
      class TyOptCounter extends BaseEntity {
        // @ts-expect-error @Counter takes no options
        @Counter({ x: 1 }) n = 0;
      }
      return TyOptCounter;
    }, 'TyOptCounter.n: unknown @Counter option "x"');
    refused(() => {
      @Model()
      class TyOptVersion extends BaseEntity {
        // @ts-expect-error @Version takes no options
        @Version({ x: 1 }) v?: number;
      }
      return TyOptVersion;
    }, 'TyOptVersion.v: unknown @Version option "x"');
    refused(() => {
      @Model()
      class TyOptDynamic extends BaseEntity {
        // @ts-expect-error @DynamicAttrs takes no options
        @DynamicAttrs({ x: 1 }) extra: Record<string, string> = {};
      }
      return TyOptDynamic;
    }, 'TyOptDynamic.extra: unknown @DynamicAttrs option "x"');
    refused(() => {
      @Model()
      class TyOptHook extends BaseEntity {
        @Attr() s?: string;
        // @ts-expect-error a hook takes no options
        @BeforeSave({ x: 1 }) touch(): void {}
        @AfterLoad loaded(): void {}
      }
      return TyOptHook;
    }, 'TyOptHook.touch: unknown @BeforeSave option "x"');
  });

  it('the relation decorators', () => {
    refused(() => {
      @Model()
      class TyOptBelongs extends BaseEntity {
        // @ts-expect-error `foreignkey` is not an option of @BelongsTo
        @BelongsTo(() => TyOptBelongs, { foreignkey: 'parentId' }) parent!: BelongsTo<TyOptBelongs>;
      }
      return TyOptBelongs;
    }, 'TyOptBelongs.parent: unknown @BelongsTo option "foreignkey"');
    refused(() => {
      @Model()
      class TyOptHasMany extends BaseEntity {
        @BelongsTo(() => TyOptHasMany) parent!: BelongsTo<TyOptHasMany>;
        // @ts-expect-error `ondelete` is not an option of @HasMany
        @HasMany(() => TyOptHasMany, { inverse: 'parent', ondelete: 'cascade' }) children!: HasMany<TyOptHasMany>;
      }
      return TyOptHasMany;
    }, 'TyOptHasMany.children: unknown @HasMany option "ondelete"');
    refused(() => {
      @Model()
      class TyOptManyToMany extends BaseEntity {
        // @ts-expect-error `inverted` is not an option of @ManyToMany
        @ManyToMany(() => TyOptManyToMany, { inverted: 'tags' }) tags!: ManyToMany<TyOptManyToMany>;
      }
      return TyOptManyToMany;
    }, 'TyOptManyToMany.tags: unknown @ManyToMany option "inverted"');
  });
});

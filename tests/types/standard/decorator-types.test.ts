import {
  AfterLoad,
  Attr,
  BaseEntity,
  BeforeSave,
  BelongsTo,
  Codec,
  Counter,
  DynamicAttrs,
  HasMany,
  Index,
  ManyToMany,
  Model,
  SchemaError,
  SortableString,
  Unique,
  Version,
} from 'redis-record';
import { descriptorOf } from '../../../src/model/model-registry';

/**
 * The compile-time checks of the decorators in the standard (TC39) form, which checks the field's declared type
 * (`ClassFieldDecoratorContext<This, Value>`): what tests/types checks in the legacy form. `npm run typecheck`
 * type-checks this file without experimentalDecorators (tests/decorators-standard/tsconfig.json): every
 * `// @ts-expect-error` line must fail to compile, and every other line must compile. Without decorator
 * metadata most of these declarations raise no error at run time: the compiler is what catches them. Each test
 * also runs, and asserts what the model is.
 */

const cents: Codec<bigint> = { encode: (value) => value.toString(), decode: (raw) => BigInt(raw) };

describe('attributes and their declared types, standard form', () => {
  it('@Attr({ type }) and @Attr({ codec }) go on properties declared with their values', () => {
    @Model()
    class StdTyped extends BaseEntity {
      @Attr({ type: 'string' }) title?: string;
      @Attr({ type: 'string' }) status?: 'draft' | 'published';
      @Attr({ type: 'number' }) rank: number | null = null;
      @Attr({ type: 'boolean' }) done?: boolean;
      @Attr({ type: 'date' }) at?: Date;
      @Attr({ type: 'json' }) tags: string[] = [];
      @Attr({ codec: cents }) total?: bigint;
      // @ts-expect-error a number attribute on a property declared as a string
      @Attr({ type: 'number' }) label?: string;
      // @ts-expect-error a date attribute on a property declared as a number
      @Attr({ type: 'date' }) when?: number;
      // @ts-expect-error a Codec<bigint> on a property declared number
      @Attr({ codec: cents }) due?: number;
    }
    expect(descriptorOf(StdTyped).attributes.map((a) => a.type)).toEqual([
      'string',
      'string',
      'number',
      'boolean',
      'date',
      'json',
      'custom',
      'number',
      'date',
      'custom',
    ]);
  });

  it('@Counter and @Version go on numbers, @DynamicAttrs on an object', () => {
    @Model()
    class StdRoles extends BaseEntity {
      @Counter() views = 0;
      @Version() version?: number;
      @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
    }
    @Model()
    class StdBadRoles extends BaseEntity {
      // @ts-expect-error a counter is a number
      @Counter() hits?: string;
      // @ts-expect-error so is a version
      @Version() version?: Date;
      // @ts-expect-error an array holds no keys of its own
      @DynamicAttrs() extra: string[] = [];
    }
    expect(descriptorOf(StdRoles).attributes.map((a) => a.role)).toEqual(['counter', 'version']);
    expect(descriptorOf(StdBadRoles).dynamicProperty).toBe('extra');
  });

  it('sortable and caseInsensitive go on strings', () => {
    @Model()
    class StdStrings extends BaseEntity {
      @Attr({ type: 'string' }) @Index({ sortable: true }) name?: SortableString;
      @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
      @Attr({ type: 'number' }) @Index() rank?: number;
    }
    expect(descriptorOf(StdStrings).indexes.map((i) => i.kind)).toEqual(['lex', 'unique', 'score']);
    expect(() => {
      @Model()
      class StdSortableNumber extends BaseEntity {
        // @ts-expect-error a number is always ordered: @Index() alone
        @Attr({ type: 'number' }) @Index({ sortable: true }) rank?: number;
      }
      return StdSortableNumber;
    }).toThrow(/StdSortableNumber\.rank: sortable applies to string attributes; a number is always ordered/);
    expect(() => {
      @Model()
      class StdCaseNumber extends BaseEntity {
        // @ts-expect-error a number has no case
        @Attr({ type: 'number' }) @Unique({ caseInsensitive: true }) code?: number;
      }
      return StdCaseNumber;
    }).toThrow(/caseInsensitive applies to string attributes only/);
  });
});

@Model()
class StdUser extends BaseEntity {
  @Attr({ type: 'string' }) name?: string;
  @HasMany(() => StdArticle, { inverse: 'author' }) articles!: HasMany<StdArticle>;
}

@Model()
class StdArticle extends BaseEntity {
  @Attr({ type: 'string' }) title?: string;
  @BelongsTo(() => StdUser) author!: BelongsTo<StdUser>;
  @ManyToMany(() => StdUser) readers!: ManyToMany<StdUser>;
}

describe('relations and their handles, standard form', () => {
  it("the property is declared as the handle of the decorator's target model, on instances", () => {
    class StdMixed extends BaseEntity {
      // @ts-expect-error the target (StdArticle) is not the declared handle's model (StdUser)
      @BelongsTo(() => StdArticle) editor!: BelongsTo<StdUser>;
      // @ts-expect-error a @BelongsTo is declared BelongsTo<T>, not HasMany<T>
      @BelongsTo(() => StdArticle) reply!: HasMany<StdArticle>;
      // @ts-expect-error the inverse names no @BelongsTo of StdArticle pointing here
      @HasMany(() => StdArticle, { inverse: 'title' }) notOurs!: HasMany<StdArticle>;
      // @ts-expect-error nor a many-to-many of another model
      @ManyToMany(() => StdUser) labels!: ManyToMany<StdArticle>;
    }
    expect(StdMixed).toBeDefined();
    expect(descriptorOf(StdArticle).relations.map((r) => r.kind)).toEqual(['belongsTo', 'manyToMany']);
    expect(() => {
      @Model()
      class StdStaticRelation extends BaseEntity {
        // @ts-expect-error relations go on instance properties (and at run time a SchemaError)
        @ManyToMany(() => StdUser) static shared: ManyToMany<StdUser>;
      }
      return StdStaticRelation;
    }).toThrow(/StdStaticRelation\.shared: @ManyToMany goes on an instance property/);
  });
});

describe('where each decorator goes, standard form', () => {
  it('hooks go on methods, attributes on fields', () => {
    @Model()
    class StdPlaces extends BaseEntity {
      @Attr({ type: 'string' }) tag?: string;
      @BeforeSave stamp(): void {}
      @AfterLoad() loaded(): void {}
    }
    expect(descriptorOf(StdPlaces).hookMethods('beforeSave')).toEqual(['stamp']);
    expect(() => {
      @Model()
      class StdHookGetter extends BaseEntity {
        // @ts-expect-error a hook goes on a method, not a getter
        @BeforeSave() get computed(): number {
          return 1;
        }
      }
      return StdHookGetter;
    }).toThrow(new SchemaError('StdHookGetter.computed: @BeforeSave goes on a method, and computed is a getter or setter'));
    expect(() => {
      @Model()
      class StdAttrMethod extends BaseEntity {
        // @ts-expect-error an attribute goes on a field, not a method
        @Attr({ type: 'string' }) label(): string {
          return '';
        }
      }
      return StdAttrMethod;
    }).toThrow(new SchemaError('StdAttrMethod.label: @Attr goes on a field, and label is a method'));
  });

  it('a cap per value names properties of the class', () => {
    @Model({ cap: { by: 'at', keep: 3, per: 'userId' } })
    class StdCapLogin extends BaseEntity {
      @Attr({ type: 'string' }) userId?: string;
      @Attr({ type: 'number' }) @Index({ scope: 'userId' }) at?: number;
    }
    expect(descriptorOf(StdCapLogin).cap?.per?.property).toBe('userId');
    expect(() => {
      // @ts-expect-error `user` is no property of the class
      @Model({ cap: { by: 'at', keep: 3, per: 'user' } })
      class StdCapBad extends BaseEntity {
        @Attr({ type: 'string' }) userId?: string;
        @Attr({ type: 'number' }) @Index({ scope: 'userId' }) at?: number;
      }
      return StdCapBad;
    }).toThrow(new SchemaError('StdCapBad: cap.per "user" is not an attribute of the model (declare it with @Attr())'));
  });
});

import { AfterLoad, Attr, BaseEntity, BeforeSave, Counter, Index, Model, SchemaError } from 'redis-record';
import { schemaErrorOf } from '../support/schema-error-of';

/**
 * With standard decorators, a model that cannot work still fails when its class is defined, with a SchemaError
 * naming the class and the property, and saying what to change. A member decorator sees no class in this form:
 * @Model runs its work (deferred-declarations.ts), so the error comes from @Model, naming the class.
 */

const TYPES = '(types: string, number, boolean, date, json; or @Attr({ codec }))';

describe('attributes without type information', () => {
  it('name the option to add', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class StdNoType extends BaseEntity {
        @Attr() title?: string;
      }
      return StdNoType;
    });
    expect(error.message).toBe(
      `StdNoType.title: no type information for this attribute (the compiler emits no decorator metadata): declare it, @Attr({ type: 'string' }) ${TYPES}`,
    );
  });

  it('name the base class that declares the attribute, for each model extending it', () => {
    abstract class StdUntypedBase extends BaseEntity {
      @Attr() either?: string | boolean;
    }
    const message = `StdUntypedBase.either: no type information for this attribute (the compiler emits no decorator metadata): declare it, @Attr({ type: 'string' }) ${TYPES}`;
    const first = schemaErrorOf(() => {
      @Model()
      class StdUntypedFirst extends StdUntypedBase {}
      return StdUntypedFirst;
    });
    const second = schemaErrorOf(() => {
      @Model()
      class StdUntypedSecond extends StdUntypedBase {}
      return StdUntypedSecond;
    });
    expect([first.message, second.message]).toEqual([message, message]);
  });
});

describe('decorators where they cannot go', () => {
  it('a field decorator on a static field', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class StdStatic extends BaseEntity {
        @Attr({ type: 'string' }) static shared?: string;
      }
      return StdStatic;
    });
    expect(error.message).toBe('StdStatic.shared: @Attr goes on instance properties, not static ones');
  });

  it('a field decorator on a method or a getter', () => {
    const onMethod = schemaErrorOf(() => {
      @Model()
      class StdOnMethod extends BaseEntity {
        // @ts-expect-error @Attr goes on a field (the types refuse it too)
        @Attr({ type: 'string' }) label(): string {
          return '';
        }
      }
      return StdOnMethod;
    });
    expect(onMethod.message).toBe('StdOnMethod.label: @Attr goes on a field, and label is a method');
    const onGetter = schemaErrorOf(() => {
      @Model()
      class StdOnGetter extends BaseEntity {
        // a getter is indexed as a computed value: @Computed() says so
        @Index() get label(): string {
          return '';
        }
      }
      return StdOnGetter;
    });
    expect(onGetter.message).toBe('StdOnGetter.label: @Index needs @Attr() on the same property (or @Computed() on a getter)');
  });

  it('a field decorator on an auto-accessor', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class StdAccessor extends BaseEntity {
        // @ts-expect-error an auto-accessor is no field
        @Attr({ type: 'string' }) accessor title: string | undefined;
      }
      return StdAccessor;
    });
    expect(error.message).toBe(
      'StdAccessor.title: @Attr goes on a field, and title is an auto-accessor: drop the accessor keyword (attributes are plain fields)',
    );
  });

  it('any decorator on a #private member', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class StdPrivate extends BaseEntity {
        @Attr({ type: 'string' }) #secret?: string;
        reveal() {
          return this.#secret;
        }
      }
      return StdPrivate;
    });
    expect(error.message).toBe(
      "StdPrivate.#secret: @Attr cannot go on a #private member: redis-record reaches fields by name; drop the # (TypeScript's private keyword works)",
    );
  });

  it('a hook on a field, and on a static method', () => {
    const onField = schemaErrorOf(() => {
      @Model()
      class StdHookField extends BaseEntity {
        @Attr({ type: 'string' }) tag?: string;
        // @ts-expect-error a hook goes on a method
        @BeforeSave stamp = () => undefined;
      }
      return StdHookField;
    });
    expect(onField.message).toBe('StdHookField.stamp: @BeforeSave goes on a method, and stamp is a field');
    const onStatic = schemaErrorOf(() => {
      @Model()
      class StdHookStatic extends BaseEntity {
        @Attr({ type: 'string' }) tag?: string;
        @AfterLoad() static loaded(): void {}
      }
      return StdHookStatic;
    });
    expect(onStatic.message).toBe('StdHookStatic.loaded: @AfterLoad goes on instance methods, not static ones');
  });

  it('@Model on a member, a member decorator on a class', () => {
    expect(() => {
      class StdModelOnField extends BaseEntity {
        // @ts-expect-error @Model goes on a class
        @Model() title?: string;
      }
      return StdModelOnField;
    }).toThrow(new SchemaError('title: @Model goes on a class, not on a field'));
    expect(() => {
      // @ts-expect-error @Index goes on a field
      @Index()
      class StdIndexOnClass extends BaseEntity {}
      return StdIndexOnClass;
    }).toThrow(new SchemaError('StdIndexOnClass: @Index goes on a field or getter of the class, not on the class'));
  });
});

describe('decorator factories applied bare', () => {
  it('@Attr for @Attr(): the property would silently be no attribute', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class StdBareAttr extends BaseEntity {
        // @ts-expect-error @Attr makes the decorator: @Attr()
        @Attr title?: string;
      }
      return StdBareAttr;
    });
    expect(error.message).toBe('StdBareAttr.title: write @Attr() with parentheses (@Attr makes the decorator)');
  });

  it('@Counter and @Model', () => {
    expect(
      schemaErrorOf(() => {
        @Model()
        class StdBareCounter extends BaseEntity {
          // @ts-expect-error @Counter()
          @Counter views = 0;
        }
        return StdBareCounter;
      }).message,
    ).toBe('StdBareCounter.views: write @Counter() with parentheses (@Counter makes the decorator)');
    expect(
      schemaErrorOf(() => {
        // @ts-expect-error @Model()
        @Model
        class StdBareModel extends BaseEntity {}
        return StdBareModel;
      }).message,
    ).toBe('StdBareModel: write @Model() with parentheses (@Model makes the decorator)');
  });
});

describe('what the legacy form refuses, the standard form refuses the same way', () => {
  it('an unknown option, a second declaration of a property, an index without an attribute', () => {
    expect(
      schemaErrorOf(() => {
        @Model()
        class StdTypo extends BaseEntity {
          // @ts-expect-error `tpye` is not an option of @Attr
          @Attr({ tpye: 'string' }) title?: string;
        }
        return StdTypo;
      }).message,
    ).toBe('StdTypo.title: unknown @Attr option "tpye" (@Attr takes type, codec)');
    expect(
      schemaErrorOf(() => {
        @Model()
        class StdTwice extends BaseEntity {
          @Attr({ type: 'number' }) @Counter() visits = 0;
        }
        return StdTwice;
      }).message,
    ).toBe('StdTwice.visits: declared by both @Counter and @Attr; a property takes one of @Attr, @Counter and @Version');
    expect(
      schemaErrorOf(() => {
        @Model()
        class StdIndexAlone extends BaseEntity {
          @Index() title?: string;
        }
        return StdIndexAlone;
      }).message,
    ).toBe('StdIndexAlone.title: @Index needs @Attr() on the same property (or @Computed() on a getter)');
  });
});

describe('a compiler that gives standard decorators no metadata object', () => {
  it('is named, with what to change (TypeScript 5.0 and 5.1 give none)', () => {
    const context = { kind: 'field', name: 'title', static: false, private: false, metadata: undefined, addInitializer() {} };
    expect(() => (Attr({ type: 'string' }) as (value: undefined, context: unknown) => void)(undefined, context)).toThrow(
      new SchemaError(
        'title: @Attr was given no decorator metadata (context.metadata): compile with TypeScript 5.2 or later (or esbuild, swc, Babel with decorator metadata), or turn on experimentalDecorators in tsconfig.json',
      ),
    );
  });
});

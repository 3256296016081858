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
  Unique,
  Version,
} from '../../src';
import { descriptorOf } from '../../src/model/model-registry';
import { useTestRedis } from '../support/test-redis';
import { schemaErrorOf } from '../support/schema-error-of';

/**
 * A model that cannot work fails when its class is defined, not at its first save: a SchemaError whose
 * message names the class and the property.
 */

interface Address {
  street: string;
  city: string;
}

const passthrough: Codec<string> = { encode: (value) => value, decode: (raw) => raw };

describe('attribute types that cannot be inferred', () => {
  it('a union type', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaUnion extends BaseEntity {
        @Attr() x!: string | number;
      }
      return SchemaUnion;
    });
    expect(error.message).toContain('SchemaUnion.x');
    expect(error.message).toMatch(/infer/);
  });

  it('an interface type', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaInterface extends BaseEntity {
        @Attr() address!: Address;
      }
      return SchemaInterface;
    });
    expect(error.message).toContain('SchemaInterface.address');
  });

  it('an array type without { type: "json" }', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaArray extends BaseEntity {
        @Attr() tags!: string[];
      }
      return SchemaArray;
    });
    expect(error.message).toBe(
      "SchemaArray.tags: cannot infer the attribute type from the declared type (Array): declare it, @Attr({ type: 'json' }) (types: string, number, boolean, date, json; or @Attr({ codec }))",
    );
  });

  it('an un-annotated property whose default is null', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaNullDefault extends BaseEntity {
        @Attr() nothing = null;
      }
      return SchemaNullDefault;
    });
    expect(error.message).toContain('SchemaNullDefault.nothing');
  });

  it('names the class that declares the property, for an inherited attribute', () => {
    const error = schemaErrorOf(() => {
      abstract class SchemaBrokenBase extends BaseEntity {
        @Attr() either!: string | boolean;
      }
      @Model()
      class SchemaBrokenChild extends SchemaBrokenBase {}
      return SchemaBrokenChild;
    });
    expect(error.message).toContain('SchemaBrokenBase.either');
  });
});

describe('attribute options that cannot work', () => {
  it('an unknown type option', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaUnknownType extends BaseEntity {
        @Attr({ type: 'uuid' as never }) ref!: string;
      }
      return SchemaUnknownType;
    });
    expect(error.message).toContain('SchemaUnknownType.ref');
    expect(error.message).toContain('uuid');
  });

  it('both type and codec', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaTypeAndCodec extends BaseEntity {
        @Attr({ type: 'string', codec: passthrough }) code!: string;
      }
      return SchemaTypeAndCodec;
    });
    expect(error.message).toContain('SchemaTypeAndCodec.code');
  });

  it('a codec without decode', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHalfCodec extends BaseEntity {
        @Attr({ codec: { encode: String } as unknown as Codec<string> }) code!: string;
      }
      return SchemaHalfCodec;
    });
    expect(error.message).toContain('SchemaHalfCodec.code');
  });

  it('a type that contradicts the declared type', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaContradiction extends BaseEntity {
        // @ts-expect-error the declared type contradicts the type given (the run-time check is for JavaScript)
        @Attr({ type: 'number' }) label!: string;
      }
      return SchemaContradiction;
    });
    expect(error.message).toContain('SchemaContradiction.label');
  });
});

describe('@DynamicAttrs on a property not declared as an object', () => {
  const refusal = (where: string, declared: string) =>
    `${where}: @DynamicAttrs goes on a property declared as an object (Record<string, string | number | boolean>), not ${declared}`;

  it('a string', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaStringBag extends BaseEntity {
        // @ts-expect-error a string holds no bag (the types refuse it too)
        @DynamicAttrs() bag?: string;
      }
      return SchemaStringBag;
    });
    expect(error.message).toBe(refusal('SchemaStringBag.bag', 'String'));
  });

  it('an array', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaArrayBag extends BaseEntity {
        // @ts-expect-error nor does an array
        @DynamicAttrs() bag: string[] = [];
      }
      return SchemaArrayBag;
    });
    expect(error.message).toBe(refusal('SchemaArrayBag.bag', 'Array'));
  });

  it('a Record or an interface is an object', () => {
    interface Extras {
      [key: string]: string | number | boolean;
    }
    @Model()
    class SchemaInterfaceBag extends BaseEntity {
      @DynamicAttrs() extra?: Extras;
    }
    @Model()
    class SchemaRecordBag extends BaseEntity {
      @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
    }
    expect([SchemaInterfaceBag.build({}), SchemaRecordBag.build({})].map((entity) => entity.constructor)).toEqual([
      SchemaInterfaceBag,
      SchemaRecordBag,
    ]);
  });
});

describe('attribute names that cannot be used', () => {
  it('id is reserved', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaOwnId extends BaseEntity {
        // @ts-expect-error TS2610: `id` is BaseEntity's accessor, and a property cannot override it
        @Attr() id!: string;
      }
      return SchemaOwnId;
    });
    expect(error.message).toContain('SchemaOwnId.id');
  });

  it('OR is reserved: a where reads it as alternatives', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaOrAttribute extends BaseEntity {
        @Attr() @Index() OR?: string;
      }
      return SchemaOrAttribute;
    });
    expect(error.message).toBe('SchemaOrAttribute.OR: "OR" is reserved and cannot be an attribute');
  });

  it.each(['save', 'reload', 'toJSON', 'isPersisted', 'describe'])('the name of a method of the entity: %s', (method) => {
    const error = schemaErrorOf(() => {
      class SchemaShadow extends BaseEntity {
        describe(): string {
          return 'a method of the class itself';
        }
      }
      Attr({ type: 'string' })(SchemaShadow.prototype, method);
      Model({ name: `SchemaShadow_${method}` })(SchemaShadow);
      return SchemaShadow;
    });
    expect(error.message).toBe(`SchemaShadow.${method}: an attribute cannot take the name of a method of the entity`);
  });

  it('a static property', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaStatic extends BaseEntity {
        @Attr() static shared: string;
      }
      return SchemaStatic;
    });
    expect(error.message).toContain('SchemaStatic');
    expect(error.message).toContain('shared');
  });
});

describe('names every attribute-declaring decorator refuses, as @Attr does', () => {
  // the name is the hash field: '#id' is the object's own id field, '~foo' a dynamic attribute's field, and
  // 'a:b' the key of the set index of attribute a = 'b'
  const declare: Array<[string, (prototype: object, name: string) => void]> = [
    ['@Counter', (prototype, name) => (Counter() as PropertyDecorator)(prototype, name)],
    ['@Version', (prototype, name) => (Version() as PropertyDecorator)(prototype, name)],
    ['@DynamicAttrs', (prototype, name) => (DynamicAttrs() as PropertyDecorator)(prototype, name)],
    [
      'a @BelongsTo foreign key',
      (prototype, name) => (BelongsTo(() => SchemaNameTarget, { foreignKey: name }) as PropertyDecorator)(prototype, 'parent'),
    ],
  ];
  const names: Array<[string, string]> = [
    ['#id', 'attribute names must be plain identifiers'],
    ['~foo', 'attribute names must be plain identifiers'],
    ['a:b', 'attribute names must be plain identifiers'],
    ['id', '"id" is reserved and cannot be an attribute'],
    ['__proto__', '"__proto__" is reserved and cannot be an attribute'],
    ['constructor', '"constructor" is reserved and cannot be an attribute'],
    ['OR', '"OR" is reserved and cannot be an attribute'],
  ];

  @Model()
  class SchemaNameTarget extends BaseEntity {
    @Attr() label?: string;
  }

  it.each(declare.flatMap(([decorator, apply]) => names.map(([name, message]) => [decorator, name, apply, message] as const)))(
    '%s named %s',
    (_decorator, name, apply, message) => {
      const error = schemaErrorOf(() => {
        class SchemaBadRoleName extends BaseEntity {
          @Attr() label?: string;
        }
        apply(SchemaBadRoleName.prototype, name);
        Model({ name: 'SchemaBadRoleName' })(SchemaBadRoleName);
        return SchemaBadRoleName;
      });
      expect(error.message).toBe(`SchemaBadRoleName.${name}: ${message}`);
    },
  );

  it('a static @Counter', () => {
    const error = schemaErrorOf(() => {
      class SchemaStaticCounter extends BaseEntity {
        @Counter() static hits = 0;
      }
      return SchemaStaticCounter;
    });
    expect(error.message).toBe('SchemaStaticCounter.hits: @Counter goes on instance properties, not static ones');
  });
});

describe('two declarations of one property', () => {
  it.each([
    ['@Attr over @Counter', (p: object) => ((Counter() as PropertyDecorator)(p, 'visits'), Attr()(p, 'visits')), '@Counter and @Attr'],
    ['@Counter over @Attr', (p: object) => (Attr()(p, 'visits'), (Counter() as PropertyDecorator)(p, 'visits')), '@Attr and @Counter'],
    [
      '@Version over @Counter',
      (p: object) => ((Counter() as PropertyDecorator)(p, 'visits'), (Version() as PropertyDecorator)(p, 'visits')),
      '@Counter and @Version',
    ],
    ['@Attr twice', (p: object) => (Attr()(p, 'visits'), Attr()(p, 'visits')), '@Attr and @Attr'],
    [
      '@Attr on a @BelongsTo foreign key',
      (p: object) => ((BelongsTo(() => SchemaTwiceParent) as PropertyDecorator)(p, 'visit'), Attr()(p, 'visitId')),
      '@BelongsTo visit and @Attr',
    ],
  ])('%s, whichever is applied first', (_label, declare, both) => {
    const error = schemaErrorOf(() => {
      class SchemaTwice extends BaseEntity {
        visits = 0;
        visitId?: string;
      }
      declare(SchemaTwice.prototype);
      Model({ name: 'SchemaTwice' })(SchemaTwice);
      return SchemaTwice;
    });
    const property = both.includes('BelongsTo') ? 'visitId' : 'visits';
    expect(error.message).toBe(`SchemaTwice.${property}: declared by both ${both}; a property takes one of @Attr, @Counter and @Version`);
  });

  @Model()
  class SchemaTwiceParent extends BaseEntity {
    @Attr() label?: string;
  }

  it('@Attr() @Counter() written on the property', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaAttrCounter extends BaseEntity {
        @Attr() @Counter() visits = 0;
      }
      return SchemaAttrCounter;
    });
    expect(error.message).toContain('SchemaAttrCounter.visits: declared by both @Counter and @Attr');
  });

  it('a subclass may still redeclare a base class property', () => {
    class SchemaRedeclaredBase extends BaseEntity {
      @Attr() visits = 0;
    }
    @Model()
    class SchemaRedeclared extends SchemaRedeclaredBase {
      @Counter() declare visits: number;
    }
    expect(descriptorOf(SchemaRedeclared).counters.has('visits')).toBe(true);
  });
});

describe('indexes declared twice, and unique counters', () => {
  it('the same index declared twice on one attribute is one index', () => {
    @Model()
    class SchemaIndexTwice extends BaseEntity {
      @Attr() @Index() @Index() score?: number;
      @Attr() @Unique() @Unique() code?: string;
      @Attr() @Index({ scope: 'code' }) @Index() @Index({ scope: 'code' }) at?: Date;
    }
    expect(descriptorOf(SchemaIndexTwice).indexes.map((index) => [index.kind, index.attribute.property, index.scope?.property])).toEqual([
      ['score', 'score', undefined],
      ['unique', 'code', undefined],
      ['score', 'at', 'code'],
      ['score', 'at', undefined],
    ]);
  });

  it.each([
    ['@Counter', (p: object) => (Unique()(p, 'visits'), (Counter() as PropertyDecorator)(p, 'visits'))],
    ['@Version', (p: object) => (Unique()(p, 'visits'), (Version() as PropertyDecorator)(p, 'visits'))],
  ])('@Unique on a %s attribute', (_label, declare) => {
    const error = schemaErrorOf(() => {
      class SchemaUniqueRole extends BaseEntity {
        visits = 0;
      }
      declare(SchemaUniqueRole.prototype);
      Model({ name: 'SchemaUniqueRole' })(SchemaUniqueRole);
      return SchemaUniqueRole;
    });
    expect(error.message).toBe('SchemaUniqueRole.visits: a counter or version cannot be @Unique');
  });
});

describe('lifecycle hooks on something other than a method', () => {
  const BeforeSaveAnywhere = BeforeSave as unknown as () => PropertyDecorator;

  it('on a static method, naming the class, the method and the decorator', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookStatic extends BaseEntity {
        @Attr() tag?: string;
        @AfterLoad() static loaded(): void {}
      }
      return SchemaHookStatic;
    });
    expect(error.message).toBe('SchemaHookStatic.loaded: @AfterLoad goes on instance methods, not static ones');
  });

  it('on a method named by a symbol', () => {
    const stamp = Symbol('stamp');
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookSymbol extends BaseEntity {
        @Attr() tag?: string;
        @BeforeSave() [stamp](): void {}
      }
      return SchemaHookSymbol;
    });
    expect(error.message).toBe('SchemaHookSymbol.Symbol(stamp): @BeforeSave goes on methods named by strings, not symbols');
  });

  it('on an attribute', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookOnAttribute extends BaseEntity {
        @Attr() @BeforeSaveAnywhere() tag?: string;
      }
      return SchemaHookOnAttribute;
    });
    expect(error.message).toBe('SchemaHookOnAttribute.tag: @BeforeSave goes on a method, and tag is a field');
  });

  it('on a field holding a function', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookOnArrow extends BaseEntity {
        @Attr() tag?: string;
        @BeforeSaveAnywhere() stamp = () => undefined;
      }
      return SchemaHookOnArrow;
    });
    expect(error.message).toBe('SchemaHookOnArrow.stamp: @BeforeSave goes on a method, and stamp is a field');
  });

  it('on a getter', () => {
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookOnGetter extends BaseEntity {
        @Attr() tag?: string;
        @BeforeSave() get computed() {
          return 1;
        }
      }
      return SchemaHookOnGetter;
    });
    expect(error.message).toBe('SchemaHookOnGetter.computed: @BeforeSave goes on a method, and computed is a getter or setter');
  });

  it('on a base class method that a subclass turns into a getter', () => {
    class SchemaHookBase extends BaseEntity {
      @Attr() tag?: string;
      @BeforeSave() stamp(): void {}
    }
    const error = schemaErrorOf(() => {
      @Model()
      class SchemaHookOverridden extends SchemaHookBase {
        // @ts-expect-error TS2611: a method overridden by an accessor
        get stamp() {
          return () => undefined;
        }
      }
      return SchemaHookOverridden;
    });
    expect(error.message).toBe('SchemaHookOverridden.stamp: @BeforeSave goes on a method, and stamp is a getter or setter');
  });
});

describe('model names', () => {
  it('a duplicate model name', () => {
    @Model({ name: 'SchemaTaken' })
    class SchemaFirstOwner extends BaseEntity {
      @Attr() title!: string;
    }
    expect(SchemaFirstOwner).toBeDefined();

    const error = schemaErrorOf(() => {
      @Model({ name: 'SchemaTaken' })
      class SchemaSecondOwner extends BaseEntity {
        @Attr() title!: string;
      }
      return SchemaSecondOwner;
    });
    expect(error.message).toContain('SchemaSecondOwner');
    expect(error.message).toContain('SchemaTaken');
    expect(error.message).toContain('SchemaFirstOwner');
  });

  it('two classes of the same name (the default model name) in different scopes', () => {
    const defineSameName = () => {
      @Model()
      class SchemaSameName extends BaseEntity {
        @Attr() title!: string;
      }
      return SchemaSameName;
    };
    defineSameName();
    const error = schemaErrorOf(defineSameName);
    expect(error.message).toContain('SchemaSameName');
  });

  it.each([
    ['empty', ''],
    ['with a space', 'two words'],
    ['with a colon', 'a:b'],
    ['with braces', '{x}'],
    ['with a glob star', 'a*'],
    ['starting with a digit', '1st'],
    ['longer than 64 characters', 'm'.repeat(65)],
  ])('an invalid model name: %s', (_label, name) => {
    const error = schemaErrorOf(() => {
      @Model({ name })
      class SchemaBadName extends BaseEntity {
        @Attr() title!: string;
      }
      return SchemaBadName;
    });
    expect(error.message).toContain('SchemaBadName');
  });

  it('an unknown idStrategy', () => {
    const error = schemaErrorOf(() => {
      @Model({ idStrategy: 'random' as never })
      class SchemaBadIds extends BaseEntity {
        @Attr() title!: string;
      }
      return SchemaBadIds;
    });
    expect(error.message).toContain('SchemaBadIds');
  });

  it.each([
    ['options that are not an object', () => Model(null as never), '@Model takes an options object, got null'],
    ['a null name', () => Model({ name: null as never }), 'model name null must be 1 to 64 letters, digits or _'],
    ['a null group', () => Model({ group: null as never }), 'group null must be 1 to 64 letters, digits or _'],
    ['a null idStrategy', () => Model({ idStrategy: null as never }), "idStrategy must be 'sequence', 'uuid' or 'given'"],
    ['a null cap', () => Model({ cap: null as never }), 'cap takes { by, keep, order?, per? }, got null'],
  ])('%s', (_label, decorator, message) => {
    const error = schemaErrorOf(() => {
      class SchemaNullOption extends BaseEntity {
        @Attr() title!: string;
      }
      decorator()(SchemaNullOption);
      return SchemaNullOption;
    });
    expect(error.message).toContain(message);
  });

  it('a class without @Model cannot be used', async () => {
    class SchemaUndecorated extends BaseEntity {
      @Attr() title!: string;
    }
    expect(() => SchemaUndecorated.build({ title: 'x' })).toThrow(SchemaError);
    await expect(SchemaUndecorated.find('1')).rejects.toThrow(SchemaError);
    await expect(SchemaUndecorated.find('1')).rejects.toThrow(/SchemaUndecorated/);
  });

  it('a class without @Model: every operation rejects with SchemaError, none throws at the call', async () => {
    class SchemaUndecoratedCalls extends BaseEntity {
      @Attr() title!: string;
    }
    const Plain = SchemaUndecoratedCalls;
    const operations: Array<[string, () => Promise<unknown>]> = [
      ['find', () => Plain.find('1')],
      ['findOrFail', () => Plain.findOrFail('1')],
      ['findMany', () => Plain.findMany(['1'])],
      ['exists', () => Plain.exists('1')],
      ['create', () => Plain.create({ title: 'x' })],
      ['saveMany', () => Plain.saveMany([{ title: 'x' }])],
      ['removeMany', () => Plain.removeMany(['1'])],
      ['count', () => Plain.count()],
      ['count(where)', () => Plain.count({ title: 'x' })],
      ['findBy', () => Plain.findBy({ title: 'x' })],
      ['findOneBy', () => Plain.findOneBy({ title: 'x' })],
      ['findIds', () => Plain.findIds({ title: 'x' })],
      ['withLock', () => Plain.withLock('1', () => undefined)],
      ['sweep', () => Plain.sweep()],
      ['drop', () => Plain.drop()],
      ['check', () => Plain.check()],
      ['repair', () => Plain.repair()],
      ['reindex', () => Plain.reindex()],
      ['schemaStatus', () => Plain.schemaStatus()],
    ];
    for (const [name, call] of operations) {
      let promise: Promise<unknown> | undefined;
      let threw: unknown;
      try {
        promise = call();
      } catch (error) {
        threw = error;
      }
      expect({ name, threw }).toEqual({ name, threw: undefined });
      await expect(promise).rejects.toThrow(/^SchemaUndecoratedCalls is not a model/);
      await expect(promise).rejects.toBeInstanceOf(SchemaError);
    }
    // iterate, as for any other misuse: the iterator is made, and its first next() rejects
    let iterator: AsyncGenerator<unknown> | undefined;
    expect(() => (iterator = Plain.iterate({ title: 'x' }))).not.toThrow();
    await expect(iterator!.next()).rejects.toThrow(/^SchemaUndecoratedCalls is not a model/);
    await expect(iterator!.next()).resolves.toEqual({ done: true, value: undefined });
  });
});

describe('inferring the type from the default value', () => {
  // TypeScript emits design:type Object for `views = 0` (no annotation): the default value gives the type.
  @Model()
  class SchemaDefaults extends BaseEntity {
    @Attr() views = 0;
    @Attr() title = '';
    @Attr() done = false;
    @Attr() since = new Date(0);
    @Attr({ type: 'json' }) tags: string[] = [];
  }

  const redis = useTestRedis();

  it('TypeScript emits design:type Object for an un-annotated initializer', () => {
    expect(Reflect.getMetadata('design:type', SchemaDefaults.prototype, 'views')).toBe(Object);
  });

  it('stores and loads each attribute with the type of its default', async () => {
    const saved = await SchemaDefaults.create({ views: 7, title: 'seven', done: true, since: new Date(7), tags: ['x'] });
    const stored = await redis.raw.hGetAll(`${redis.prefix}:{SchemaDefaults}:obj:${saved.id}`);
    expect(stored).toMatchObject({ views: '7', title: 'seven', done: 'true', since: '7', tags: '["x"]' });

    const loaded = await SchemaDefaults.findOrFail(saved.id);
    expect(loaded.views).toBe(7);
    expect(loaded.title).toBe('seven');
    expect(loaded.done).toBe(true);
    expect(loaded.since).toEqual(new Date(7));
    expect(loaded.tags).toEqual(['x']);
  });

  it('stores the defaults when nothing else is given', async () => {
    const saved = await SchemaDefaults.create();
    const loaded = await SchemaDefaults.findOrFail(saved.id);
    expect(loaded.toJSON()).toEqual({ id: saved.id, views: 0, title: '', done: false, since: new Date(0), tags: [] });
  });

  it('refuses a value of another type for an inferred attribute', async () => {
    await expect(SchemaDefaults.create({ views: 'many' as never })).rejects.toThrow(/views/);
  });
});

describe('option names a decorator does not take', () => {
  // A misspelt option would otherwise be ignored: `ordr: 'asc'` left a cap keeping the highest values, and
  // deleting the lowest ones it was declared to keep. These do not compile (tests/types/decorator-options-types).
  const untyped = <F>(decorator: F) => decorator as unknown as (...args: unknown[]) => PropertyDecorator & MethodDecorator & ClassDecorator;
  const U = {
    Model: untyped(Model),
    Attr: untyped(Attr),
    Index: untyped(Index),
    Unique: untyped(Unique),
    Counter: untyped(Counter),
    Version: untyped(Version),
    DynamicAttrs: untyped(DynamicAttrs),
    BeforeSave: untyped(BeforeSave),
    AfterLoad: untyped(AfterLoad),
    BelongsTo: untyped(BelongsTo),
    HasMany: untyped(HasMany),
    ManyToMany: untyped(ManyToMany),
  };
  const MODEL_TAKES = '(@Model takes name, idStrategy, ttl, expirable, cap, group, shards, waitReplicas, waitTimeoutMs, idempotencyTtl)';

  it.each<[string, () => unknown, string]>([
    [
      '@Model({ ttll })',
      () => {
        @U.Model({ ttll: 5 })
        class OptModel1 extends BaseEntity {
          @Attr() s?: string;
        }
        return OptModel1;
      },
      `OptModel1: unknown @Model option "ttll" ${MODEL_TAKES}`,
    ],
    [
      '@Model({ ttlSeconds })',
      () => {
        @U.Model({ ttlSeconds: 5 })
        class OptModel2 extends BaseEntity {
          @Attr() s?: string;
        }
        return OptModel2;
      },
      'OptModel2: unknown @Model option "ttlSeconds"',
    ],
    [
      '@Model({ expireable })',
      () => {
        @U.Model({ expireable: true })
        class OptModel3 extends BaseEntity {
          @Attr() s?: string;
        }
        return OptModel3;
      },
      'OptModel3: unknown @Model option "expireable"',
    ],
    [
      '@Model({ capp })',
      () => {
        @U.Model({ capp: { by: 's', keep: 1 } })
        class OptModel4 extends BaseEntity {
          @Attr() @Index() s?: number;
        }
        return OptModel4;
      },
      'OptModel4: unknown @Model option "capp"',
    ],
    [
      '@Model({ waitReplica })',
      () => {
        @U.Model({ waitReplica: 1 })
        class OptModel5 extends BaseEntity {
          @Attr() s?: string;
        }
        return OptModel5;
      },
      'OptModel5: unknown @Model option "waitReplica"',
    ],
    [
      '@Model({ cap: { ordr } })',
      () => {
        @U.Model({ cap: { by: 's', keep: 1, ordr: 'asc' } })
        class OptCap1 extends BaseEntity {
          @Attr() @Index() s?: number;
        }
        return OptCap1;
      },
      'OptCap1: unknown cap option "ordr" (cap takes by, keep, order, per)',
    ],
    [
      '@Model({ cap: { extra } })',
      () => {
        @U.Model({ cap: { by: 's', keep: 1, extra: 1 } })
        class OptCap2 extends BaseEntity {
          @Attr() @Index() s?: number;
        }
        return OptCap2;
      },
      'OptCap2: unknown cap option "extra"',
    ],
    [
      '@Model({ cap: [] })',
      () => {
        @U.Model({ cap: [] })
        class OptCap3 extends BaseEntity {
          @Attr() @Index() s?: number;
        }
        return OptCap3;
      },
      'OptCap3: cap takes { by, keep, order?, per? }, got an array',
    ],
    [
      '@Attr({ tpye })',
      () => {
        @Model()
        class OptAttr1 extends BaseEntity {
          @U.Attr({ tpye: 'number' }) n = 0;
        }
        return OptAttr1;
      },
      'OptAttr1.n: unknown @Attr option "tpye" (@Attr takes type, codec)',
    ],
    [
      '@Attr("number")',
      () => {
        @Model()
        class OptAttr2 extends BaseEntity {
          @U.Attr('number') n = 0;
        }
        return OptAttr2;
      },
      'OptAttr2.n: @Attr takes an options object, got "number"',
    ],
    [
      '@Attr(null)',
      () => {
        @Model()
        class OptAttr3 extends BaseEntity {
          @U.Attr(null) n = 0;
        }
        return OptAttr3;
      },
      'OptAttr3.n: @Attr takes an options object, got null',
    ],
    [
      '@Index({ sortabel })',
      () => {
        @Model()
        class OptIndex1 extends BaseEntity {
          @Attr() @U.Index({ sortabel: true }) s?: string;
        }
        return OptIndex1;
      },
      'OptIndex1.s: unknown @Index option "sortabel" (@Index takes sortable, scope, each)',
    ],
    [
      '@Index({ unique })',
      () => {
        @Model()
        class OptIndex2 extends BaseEntity {
          @Attr() @U.Index({ unique: true }) s?: string;
        }
        return OptIndex2;
      },
      'OptIndex2.s: unknown @Index option "unique"',
    ],
    [
      '@Index(true)',
      () => {
        @Model()
        class OptIndex3 extends BaseEntity {
          @Attr() @U.Index(true) s?: string;
        }
        return OptIndex3;
      },
      'OptIndex3.s: @Index takes an options object, got true',
    ],
    [
      '@Unique({ caseinsensitive })',
      () => {
        @Model()
        class OptUnique1 extends BaseEntity {
          @Attr() @U.Unique({ caseinsensitive: true }) s?: string;
        }
        return OptUnique1;
      },
      'OptUnique1.s: unknown @Unique option "caseinsensitive" (@Unique takes caseInsensitive)',
    ],
    [
      '@Counter({ x })',
      () => {
        @Model()
        class OptCounter1 extends BaseEntity {
          @U.Counter({ x: 1 }) n = 0;
        }
        return OptCounter1;
      },
      'OptCounter1.n: unknown @Counter option "x" (@Counter takes no options)',
    ],
    [
      '@Counter(5)',
      () => {
        @Model()
        class OptCounter2 extends BaseEntity {
          @U.Counter(5) n = 0;
        }
        return OptCounter2;
      },
      'OptCounter2.n: @Counter takes no options, got 5',
    ],
    [
      '@Version({ x })',
      () => {
        @Model()
        class OptVersion1 extends BaseEntity {
          @U.Version({ x: 1 }) v?: number;
        }
        return OptVersion1;
      },
      'OptVersion1.v: unknown @Version option "x" (@Version takes no options)',
    ],
    [
      '@DynamicAttrs(5)',
      () => {
        @Model()
        class OptDynamic1 extends BaseEntity {
          @U.DynamicAttrs(5) e: Record<string, string> = {};
        }
        return OptDynamic1;
      },
      'OptDynamic1.e: @DynamicAttrs takes no options, got 5',
    ],
    [
      '@DynamicAttrs({ x })',
      () => {
        @Model()
        class OptDynamic2 extends BaseEntity {
          @U.DynamicAttrs({ x: 1 }) e: Record<string, string> = {};
        }
        return OptDynamic2;
      },
      'OptDynamic2.e: unknown @DynamicAttrs option "x"',
    ],
    [
      '@BeforeSave({ x })',
      () => {
        @Model()
        class OptHook1 extends BaseEntity {
          @Attr() s?: string;
          @U.BeforeSave({ x: 1 }) touch(): void {}
        }
        return OptHook1;
      },
      'OptHook1.touch: unknown @BeforeSave option "x" (@BeforeSave takes no options)',
    ],
    [
      '@AfterLoad("x")',
      () => {
        @Model()
        class OptHook2 extends BaseEntity {
          @Attr() s?: string;
          @U.AfterLoad('x') touch(): void {}
        }
        return OptHook2;
      },
      'OptHook2.touch: @AfterLoad takes no options, got "x"',
    ],
    [
      '@BelongsTo({ foreignkey })',
      () => {
        @Model()
        class OptBelongs1 extends BaseEntity {
          @U.BelongsTo(() => OptBelongs1, { foreignkey: 'parentId' }) parent!: unknown;
        }
        return OptBelongs1;
      },
      'OptBelongs1.parent: unknown @BelongsTo option "foreignkey" (@BelongsTo takes foreignKey)',
    ],
    [
      '@BelongsTo(null)',
      () => {
        @Model()
        class OptBelongs2 extends BaseEntity {
          @U.BelongsTo(() => OptBelongs2, null) parent!: unknown;
        }
        return OptBelongs2;
      },
      'OptBelongs2.parent: @BelongsTo takes an options object, got null',
    ],
    [
      '@HasMany({ ondelete })',
      () => {
        @Model()
        class OptHasMany1 extends BaseEntity {
          @U.HasMany(() => OptHasMany1, { inverse: 'parent', ondelete: 'cascade' }) children!: unknown;
        }
        return OptHasMany1;
      },
      'OptHasMany1.children: unknown @HasMany option "ondelete" (@HasMany takes inverse, onDelete)',
    ],
    [
      '@ManyToMany({ inverted })',
      () => {
        @Model()
        class OptTags1 extends BaseEntity {
          @U.ManyToMany(() => OptTags1, { inverted: 'tags' }) tags!: unknown;
        }
        return OptTags1;
      },
      'OptTags1.tags: unknown @ManyToMany option "inverted" (@ManyToMany takes inverse, ordered)',
    ],
  ])('%s is a SchemaError naming the decorator, the class or property and the name', (_label, define, message) => {
    const error = schemaErrorOf(define);
    expect(error.message).toContain(message);
  });

  it('an option set to undefined is absent, as in the other calls; the known names are taken', () => {
    @U.Model({ ttlSeconds: undefined, cap: { by: 'n', keep: 2, order: 'asc', extra: undefined } })
    class OptUndefinedNames extends BaseEntity {
      @U.Attr({ tpye: undefined }) @U.Index({ sortabel: undefined }) n = 0;
      @U.Counter(undefined) c = 0;
      @U.Counter({}) d = 0;
      @U.Version({ x: undefined }) v?: number;
      @U.BeforeSave() touch(): void {}
      @BeforeSave touchBare(): void {}
    }
    const model = descriptorOf(OptUndefinedNames);
    expect(model.cap).toMatchObject({ keep: 2, keepLowest: true });
    expect(model.hookMethods('beforeSave')).toEqual(['touch', 'touchBare']);
  });
});

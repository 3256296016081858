import fc from 'fast-check';
import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { MEGABYTE_STRINGS, nastyDate, nastyJson, nastyNumber, nastyString, wellFormedString } from '../support/bad-input/arbitraries';
import {
  assertPrototypeClean,
  expectExactly,
  checkProperty,
  isTyped,
  roundTripOrTypedError,
  useBadInputRedis,
} from '../support/bad-input/harness';

/**
 * Bad input through create, find, findMany, exists, save (update), remove: every attribute type, with and
 * without indexes. Each case round-trips exactly or fails with a typed error having written nothing.
 */

@Model({ name: 'BadAttrItem' })
class Item extends BaseEntity {
  @Attr() plain?: string;
  @Attr() @Index() tag?: string;
  @Attr() @Index({ sortable: true }) text?: SortableString;
  @Attr() @Unique({ caseInsensitive: true }) handle?: string;
  @Attr() @Index() n?: number;
  @Attr() m?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index() flag?: boolean;
  @Attr({ type: 'json' }) data?: unknown;
}

type Input = Partial<Record<'plain' | 'tag' | 'text' | 'handle' | 'n' | 'm' | 'at' | 'flag' | 'data', unknown>>;
const ATTRIBUTES = ['plain', 'tag', 'text', 'handle', 'n', 'm', 'at', 'flag', 'data'] as const;

const { context, snapshot, reset, assertNamespace } = useBadInputRedis(11, 'attributes');
const base = () => `${context.prefix}:{BadAttrItem}`;

const anything = fc.oneof(nastyString(), nastyNumber, nastyDate, fc.boolean(), fc.constantFrom(null, undefined, {}, [], 1n));
const stringValue = fc.oneof({ weight: 8, arbitrary: nastyString({ long: true }) }, { weight: 1, arbitrary: anything });
const numberValue = fc.oneof({ weight: 8, arbitrary: nastyNumber }, { weight: 1, arbitrary: anything });
const dateValue = fc.oneof({ weight: 8, arbitrary: nastyDate }, { weight: 1, arbitrary: anything });

const nasty: fc.Arbitrary<Input> = fc.record(
  {
    plain: stringValue,
    tag: stringValue,
    text: stringValue,
    handle: stringValue,
    n: numberValue,
    m: numberValue,
    at: dateValue,
    flag: fc.oneof(fc.boolean(), anything),
    data: nastyJson,
  },
  { requiredKeys: [] },
);

/** Values of the right type that should all be stored: odd strings, edge numbers, edge Dates, odd JSON. */
const wellTyped: fc.Arbitrary<Input> = fc.record(
  {
    plain: wellFormedString(24),
    tag: wellFormedString(24),
    text: wellFormedString(24),
    handle: wellFormedString(24),
    n: nastyNumber.filter(Number.isFinite),
    m: nastyNumber.filter(Number.isFinite),
    at: nastyDate.filter((d) => !Number.isNaN(d.getTime())),
    flag: fc.boolean(),
    data: fc.oneof(fc.jsonValue(), nastyJson),
  },
  { requiredKeys: [] },
);

const input = fc.oneof(wellTyped, nasty);

function absentIfNull(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** What a find returns equals what was written, attribute by attribute. */
function expectAttributes(found: Item | null, written: Input, what: string): void {
  if (!found) throw new Error(`${what}: not found`);
  for (const attribute of ATTRIBUTES) {
    expectExactly((found as unknown as Input)[attribute], absentIfNull(written[attribute]), `${what}: ${attribute}`);
  }
}

/** Equality queries on each indexed attribute find the object (values as written). */
async function expectFoundByIndexes(id: string, written: Input): Promise<void> {
  const queries: Array<Record<string, unknown>> = [];
  for (const attribute of ['tag', 'text', 'handle', 'n', 'at', 'flag'] as const) {
    const value = absentIfNull(written[attribute]);
    if (value !== undefined) queries.push({ [attribute]: value });
  }
  for (const where of queries) {
    const ids = await Item.findIds(where as never);
    if (!ids.includes(id)) throw new Error(`findIds(${Object.keys(where)[0]}) misses ${id}`);
    const count = await Item.count(where as never);
    if (count !== ids.length) throw new Error(`count(${Object.keys(where)[0]}) = ${count}, findIds found ${ids.length}`);
  }
}

/** One case: a baseline object, then create, find/findMany/exists, update, remove of a second one. */
async function attributeCase(created: Input, updated: Input): Promise<void> {
  await reset();
  const baseline = await Item.create({
    plain: 'base',
    tag: 'base',
    text: 'base',
    handle: 'Base',
    n: 1,
    at: new Date(1),
    flag: true,
    data: { a: [1] },
  });
  const keysBefore = new Set(await context.raw.keys('*'));
  let item: Item | undefined;

  const createdOk = await roundTripOrTypedError(
    'create',
    snapshot,
    () => Item.create(created as never),
    async (saved) => {
      item = saved;
      expectAttributes(saved, created, 'create (instance)');
      expectAttributes(await Item.find(saved.id), created, 'find');
      const [again, other, missing] = await Item.findMany([saved.id, baseline.id, '999']);
      expectAttributes(again, created, 'findMany');
      if (other?.plain !== 'base' || missing !== null) throw new Error('findMany: wrong neighbours');
      if (!(await Item.exists(saved.id))) throw new Error('exists: false after create');
      await expectFoundByIndexes(saved.id, created);
    },
  );
  context.cases.add('create (string, number, Date, boolean, json attributes, indexed and not)', 1);
  await assertNamespace(base());
  if (!createdOk) {
    // the same values as an update of the baseline: refused with nothing written, or stored exactly
    const loaded = (await Item.find(baseline.id))!;
    Object.assign(loaded, created);
    await roundTripOrTypedError(
      'update of the baseline',
      snapshot,
      () => loaded.save(),
      async () => {
        expectAttributes(await Item.find(baseline.id), { ...baselineInput(), ...created }, 'update of the baseline');
      },
    );
    await assertNamespace(base());
    return;
  }

  const id = item!.id!;
  const loaded = (await Item.find(id))!;
  for (const attribute of ATTRIBUTES) if (attribute in updated) (loaded as unknown as Input)[attribute] = updated[attribute];
  const expected = { ...created, ...updated };
  await roundTripOrTypedError(
    'update',
    snapshot,
    () => loaded.save(),
    async () => {
      expectAttributes(await Item.find(id), expected, 'update');
      await expectFoundByIndexes(id, expected);
    },
  );
  context.cases.add('updates (save of changed attributes)', 1);
  await assertNamespace(base());

  await item!.remove();
  if ((await Item.find(id)) !== null || (await Item.exists(id))) throw new Error('remove: still there');
  const keysAfter = (await context.raw.keys('*')).filter((key) => !keysBefore.has(key) && !key.endsWith(':seq'));
  if (keysAfter.length > 0) throw new Error(`remove left keys behind: ${keysAfter.slice(0, 3).map((k) => JSON.stringify(k.slice(0, 80)))}`);
  context.cases.add('removes', 1);
  await assertNamespace(base());
  assertPrototypeClean();
}

function baselineInput(): Input {
  return { plain: 'base', tag: 'base', text: 'base', handle: 'Base', n: 1, at: new Date(1), flag: true, data: { a: [1] } };
}

it('create, find, findMany, exists, update and remove round-trip odd values exactly or fail typed with nothing written', async () => {
  await checkProperty('attributes', fc.asyncProperty(input, input, attributeCase), 260);
});

it('very long strings (about 1 MB) round-trip through every kind of string index', async () => {
  for (const value of MEGABYTE_STRINGS) {
    await attributeCase({ plain: value, tag: value, text: value, handle: value }, { tag: value.slice(1), text: `${value}!` });
  }
  context.cases.add('megabyte strings', MEGABYTE_STRINGS.length);
});

it('JSON attributes: __proto__ and constructor keys are stored as data, nothing reaches Object.prototype', async () => {
  await checkProperty(
    'json',
    fc.asyncProperty(nastyJson, async (data) => {
      await reset();
      await roundTripOrTypedError(
        'create json',
        snapshot,
        () => Item.create({ data }),
        async (saved) => {
          const found = await Item.find(saved.id);
          expectExactly(found!.data, absentIfNull(data), 'json');
          if (JSON.stringify(found!.data) !== JSON.stringify(absentIfNull(data))) throw new Error('json: different text');
        },
      );
      assertPrototypeClean();
      await assertNamespace(base());
      context.cases.add('json values', 1);
    }),
    400,
  );
});

it('build refuses unknown attribute names (including __proto__ and constructor) with a ValidationError', async () => {
  await checkProperty(
    'build',
    fc.asyncProperty(fc.constantFrom('__proto__', 'constructor', 'id', 'a:b', 'toString', 'nope', ''), anything, async (key, value) => {
      const attributes = Object.defineProperty({}, key, { value, enumerable: true });
      try {
        Item.build(attributes as never);
        throw new Error(`build accepted ${key}`);
      } catch (error) {
        if ((error as Error).message.startsWith('build accepted')) throw error;
        isTyped(error);
      }
      assertPrototypeClean();
      context.cases.add('unknown attribute names in build', 1);
    }),
    60,
  );
});

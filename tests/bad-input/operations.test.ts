import fc from 'fast-check';
import {
  Attr,
  BaseEntity,
  Counter,
  DynamicAttrs,
  Index,
  InvalidIdError,
  Model,
  NotFoundError,
  SchemaError,
  SortableString,
} from '../../src';
import { attributeName, nastyDate, nastyId, nastyNumber, nastyString, wellFormedString } from '../support/bad-input/arbitraries';
import {
  assertPrototypeClean,
  checkProperty,
  expectExactly,
  isTyped,
  roundTripOrTypedError,
  useBadInputRedis,
} from '../support/bad-input/harness';
import { expectedIds, Row } from '../support/query-oracle';

/**
 * Bad input through ids (find, findOrFail, findMany, exists, withLock), runtime decorators (attribute and model
 * names), increment, expire, dynamic attributes, where values for every operator, lex ranges, and tenants.
 */

@Model({ name: 'BadOpsItem', expirable: true })
class Item extends BaseEntity {
  @Attr() @Index({ sortable: true }) text?: SortableString;
  @Attr() @Index() tag?: string;
  @Attr() @Index() n?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index() flag?: boolean;
  @Attr() plain?: string;
  @Counter() hits = 0;
  @Counter() @Index() score = 0;
  @DynamicAttrs() extra?: Record<string, string | number | boolean>;
}

const { context, snapshot, reset, assertNamespace } = useBadInputRedis(12, 'operations');
const base = (model = 'BadOpsItem') => `${context.prefix}:{${model}}`;

const VALID_ID = /^[A-Za-z0-9_-]{1,128}$/;
function validId(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 0 ? String(id) : undefined;
  return typeof id === 'string' && VALID_ID.test(id) ? id : undefined;
}

it('ids: find, findOrFail, findMany, exists and withLock find the object with that id or throw InvalidIdError', async () => {
  await reset();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await Item.create({ tag: `t${i}` })).id!);
  await checkProperty(
    'ids',
    fc.asyncProperty(nastyId, async (id) => {
      const normalized = validId(id);
      const before = await snapshot();
      const outcomes = await Promise.all([
        Item.find(id as never).then(
          (found) => found?.id ?? null,
          (error: unknown) => error,
        ),
        Item.exists(id as never).catch((error: unknown) => error),
        Item.findMany([id as never, '1']).then(
          (found) => found[0]?.id ?? null,
          (error: unknown) => error,
        ),
        // withLock validates the id before it returns its promise (a synchronous throw), hence the wrapper
        Promise.resolve()
          .then(() => Item.withLock(id as never, async (entity) => entity.id))
          .catch((error: unknown) => error),
      ]);
      for (const outcome of outcomes) {
        if (outcome instanceof Error) {
          isTyped(outcome);
          if (normalized === undefined && !(outcome instanceof InvalidIdError)) throw new Error(`not InvalidIdError: ${outcome.message}`);
        }
      }
      const live = normalized !== undefined && ids.includes(normalized);
      if (normalized === undefined) {
        if (!outcomes.every((o) => o instanceof InvalidIdError)) throw new Error(`invalid id accepted by some operation`);
      } else {
        if (outcomes[0] !== (live ? normalized : null)) throw new Error(`find(${String(id)}) = ${String(outcomes[0])}`);
        if (outcomes[1] !== live) throw new Error(`exists = ${String(outcomes[1])}`);
        if (outcomes[2] !== (live ? normalized : null)) throw new Error(`findMany = ${String(outcomes[2])}`);
        if (live && outcomes[3] !== normalized) throw new Error(`withLock = ${String(outcomes[3])}`);
      }
      const after = await snapshot();
      if ([...after.keys()].join() !== [...before.keys()].join()) throw new Error('reads by id left keys behind (a lock?)');
      await assertNamespace(base());
      assertPrototypeClean();
      context.cases.add('ids (find, exists, findMany, withLock)');
    }),
    300,
  );
});

let modelNumber = 0;
it('attribute and model names given to decorators at runtime: SchemaError, or a model whose keys stay in its namespace', async () => {
  await checkProperty(
    'names',
    fc.asyncProperty(
      attributeName,
      fc.oneof(attributeName, fc.constant(undefined)),
      wellFormedString(12),
      async (name, modelName, value) => {
        await reset();
        const suffix = ++modelNumber;
        class Runtime extends BaseEntity {}
        let defined: string | undefined;
        try {
          Attr({ type: 'string' })(Runtime.prototype, name);
          Index()(Runtime.prototype, name);
          const finalName = modelName === undefined ? `Runtime${suffix}` : `${modelName}${suffix}`;
          Model({ name: finalName })(Runtime);
          defined = finalName;
        } catch (error) {
          if (!(error instanceof SchemaError)) throw new Error(`not a SchemaError: ${String(error)}`);
        }
        if (
          /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) &&
          !['id', '__proto__', 'constructor', 'prototype'].includes(name) &&
          modelName === undefined
        ) {
          if (defined === undefined) throw new Error(`valid attribute ${name} refused`);
        }
        if (defined !== undefined) {
          const Ctor = Runtime as unknown as typeof BaseEntity & { create(a: object): Promise<BaseEntity & { id: string }> };
          const created = await (Ctor as any).create({ [name]: value });
          const found = (await (Ctor as any).find(created.id)) as Record<string, unknown>;
          expectExactly(found[name], value, `attribute ${name}`);
          const ids = await (Ctor as any).findIds({ [name]: value });
          if (!ids.includes(created.id)) throw new Error('findIds misses the object');
          await assertNamespace(`${context.prefix}:{${defined}}`);
        }
        assertPrototypeClean();
        context.cases.add('attribute and model names');
      },
    ),
    200,
  );
});

it('increment: the value it resolves to is the value read back, or a typed error with nothing written', async () => {
  await checkProperty(
    'increment',
    fc.asyncProperty(
      fc.constantFrom('hits', 'score', 'plain', 'n', 'nope'),
      nastyNumber.filter(Number.isFinite),
      fc.oneof(nastyNumber, fc.constantFrom('1', null, undefined, 1n)),
      async (counter, start, amount) => {
        await reset();
        const item = await Item.create({ hits: start, score: start });
        await roundTripOrTypedError(
          'increment',
          snapshot,
          () => item.increment(counter as 'hits', amount as number),
          async (value) => {
            if (!Number.isFinite(value)) throw new Error(`increment resolved to ${value}`);
            const found = (await Item.find(item.id!))!;
            expectExactly(found[counter as 'hits'], value, 'counter');
            if (counter === 'score' && !(await Item.findIds({ score: value })).includes(item.id!))
              throw new Error('score index misses the object');
            if (Number.isSafeInteger(start) && Number.isSafeInteger(amount) && Number.isSafeInteger(start + (amount as number))) {
              expectExactly(value, start + (amount as number), 'integer sum');
            }
          },
        );
        await assertNamespace(base());
        context.cases.add('increments');
      },
    ),
    300,
  );
});

it('expire: a positive number of seconds with millisecond precision sets the TTL, anything else is a typed error', async () => {
  await checkProperty(
    'expire',
    fc.asyncProperty(fc.oneof(nastyNumber, fc.constantFrom('1', null, undefined, 0.0005, 0.001, 1e9, 2 ** 40)), async (seconds) => {
      await reset();
      const item = await Item.create({ tag: 'x', n: 1 });
      await roundTripOrTypedError(
        'expire',
        snapshot,
        () => item.expire(seconds as number),
        async () => {
          const left = await item.ttl().catch((error: unknown) => {
            if ((seconds as number) < 1 && error instanceof NotFoundError) return 0; // already gone: fine for a few ms
            throw error;
          });
          if (left === null || left < 0 || left > (seconds as number) * (1 + 1e-12))
            throw new Error(`ttl ${left} after expire(${seconds})`);
        },
      );
      await assertNamespace(base());
      context.cases.add('expires');
    }),
    150,
  );
});

const dynamicKey = fc.oneof(
  nastyString({ maxLength: 10 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'x'.repeat(200), 'x'.repeat(201), 'hits', 'toString'),
);
const dynamicValue = fc.oneof(nastyString(), nastyNumber, fc.boolean(), fc.constantFrom(null, undefined, {}, [], new Date(0), 1n));
const bag = fc.array(fc.tuple(dynamicKey, dynamicValue), { maxLength: 5 }).map((entries) => {
  const target: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
});

function storedBag(written: Record<string, unknown>): Record<string, unknown> {
  const expected: Record<string, unknown> = {};
  for (const key of Object.keys(written)) {
    if (written[key] !== undefined && written[key] !== null)
      Object.defineProperty(expected, key, { value: written[key], enumerable: true });
  }
  return expected;
}

it('dynamic attributes: odd keys and values round-trip with their type, or a ValidationError with nothing written', async () => {
  await checkProperty(
    'dynamic',
    fc.asyncProperty(bag, bag, async (first, second) => {
      await reset();
      const other = await Item.create({ extra: { keep: 'me' } });
      const created = await roundTripOrTypedError(
        'create with dynamic attributes',
        snapshot,
        () => Item.create({ extra: first as never }),
        async (item) => {
          expectExactly((await Item.find(item.id!))!.extra, storedBag(first), 'dynamic attributes');
        },
      );
      const loaded = (await Item.find(other.id!))!;
      loaded.extra = second as never;
      await roundTripOrTypedError(
        'update of dynamic attributes',
        snapshot,
        () => loaded.save(),
        async () => {
          expectExactly((await Item.find(other.id!))!.extra, storedBag(second), 'updated dynamic attributes');
        },
      );
      await assertNamespace(base());
      assertPrototypeClean();
      context.cases.add(created ? 'dynamic attribute bags (stored)' : 'dynamic attribute bags (refused)');
    }),
    300,
  );
});

const QUERY_STRINGS = [
  '',
  'a',
  'a\0',
  '\0',
  'a\0b',
  'a\u0001',
  'ab',
  'b',
  ':',
  '{',
  '}',
  '*',
  '\uffff',
  '😀',
  'é',
  'e\u0301',
  '\u00ff',
  '\u0100',
];
const queryString = fc.oneof(fc.constantFrom(...QUERY_STRINGS), wellFormedString(4));
const rowArb = fc.record({
  text: fc.option(queryString, { nil: undefined }),
  tag: fc.option(queryString, { nil: undefined }),
  n: fc.option(nastyNumber.filter(Number.isFinite), { nil: undefined }),
  at: fc.option(
    nastyDate.filter((d) => !Number.isNaN(d.getTime())),
    { nil: undefined },
  ),
  flag: fc.option(fc.boolean(), { nil: undefined }),
});
const OPERATORS = ['eq', 'in', 'gt', 'gte', 'lt', 'lte', 'startsWith'] as const;
const operand = fc.oneof(
  queryString,
  nastyString({ maxLength: 6 }),
  nastyNumber,
  nastyDate,
  fc.boolean(),
  fc.constantFrom(null, {}, [], '1', 1n),
);
const typedOperand: Record<string, fc.Arbitrary<unknown>> = {
  text: queryString,
  tag: queryString,
  n: nastyNumber.filter(Number.isFinite),
  at: nastyDate.filter((d) => !Number.isNaN(d.getTime())),
  flag: fc.boolean(),
};
/** Mostly operands of the attribute's type (answered), sometimes anything (refused, or answered when it fits). */
const condition = fc.constantFrom('text', 'tag', 'n', 'at', 'flag', 'plain', 'hits', 'nope', '__proto__').chain((attribute) => {
  const value = Object.hasOwn(typedOperand, attribute)
    ? fc.oneof({ weight: 4, arbitrary: typedOperand[attribute] }, { weight: 1, arbitrary: operand })
    : operand;
  const ops =
    attribute === 'text'
      ? OPERATORS
      : attribute === 'n' || attribute === 'at'
        ? OPERATORS.filter((o) => o !== 'startsWith')
        : (['eq', 'in'] as const);
  return fc.tuple(
    fc.constant(attribute),
    fc.array(fc.tuple(fc.constantFrom(...ops), value, fc.array(value, { maxLength: 3 })), { minLength: 1, maxLength: 2 }),
  );
});

function whereOf([attribute, operators]:
  [string, Array<[string, unknown, unknown[]]>] | readonly [string, ReadonlyArray<readonly [string, unknown, unknown[]]>]): Record<
  string,
  unknown
> {
  const where: Record<string, unknown> = {};
  const [first] = operators;
  if (first[0] === 'eq') {
    Object.defineProperty(where, attribute, { value: first[1], enumerable: true });
    return where;
  }
  const ops: Record<string, unknown> = {};
  for (const [op, value, list] of operators) if (op !== 'eq') ops[op] = op === 'in' ? list : value;
  Object.defineProperty(where, attribute, { value: ops, enumerable: true });
  return where;
}

it("where values for every operator and lex ranges with odd bounds: the oracle's ids, or a QueryError with nothing written", async () => {
  await checkProperty(
    'where',
    fc.asyncProperty(
      fc.array(rowArb, { minLength: 1, maxLength: 6 }),
      fc.array(condition, { minLength: 1, maxLength: 2 }),
      async (rows, conditions) => {
        await reset();
        const stored: Row[] = [];
        for (const row of rows) stored.push({ ...row, hits: 0, score: 0, id: (await Item.create(row)).id! });
        const where = Object.assign({}, ...conditions.map(whereOf));
        let expected: string[] | undefined;
        try {
          // an operator object without any defined operator ({ tag: {} }) is no condition at all for the library
          // (objects without the attribute match too); the oracle is given the same where without it
          const oracleWhere = Object.fromEntries(
            Object.entries(where).filter(
              ([, c]) =>
                !(
                  c &&
                  typeof c === 'object' &&
                  !(c instanceof Date) &&
                  !Array.isArray(c) &&
                  Object.getPrototypeOf(c) === Object.prototype &&
                  Object.values(c).every((v) => v === undefined)
                ),
            ),
          );
          expected = expectedIds(stored, oracleWhere);
        } catch {
          expected = undefined; // the oracle cannot compare these values: only a typed error is acceptable
        }
        const ok = await roundTripOrTypedError(
          'findIds',
          snapshot,
          () => Item.findIds(where as never),
          async (ids) => {
            if (expected === undefined) throw new Error(`findIds accepted an incomparable where: ${JSON.stringify(Object.keys(where))}`);
            if (JSON.stringify(ids) !== JSON.stringify(expected))
              throw new Error(`findIds ${JSON.stringify(ids)}, expected ${JSON.stringify(expected)}`);
            const count = await Item.count(where as never);
            if (count !== expected.length) throw new Error(`count ${count}, expected ${expected.length}`);
          },
        );
        await assertNamespace(base());
        assertPrototypeClean();
        context.cases.add(ok ? 'where clauses (answered)' : 'where clauses (refused)');
      },
    ),
    300,
  );
});

it('tenants: Model.scope accepts tenant names of A-Z a-z 0-9 _ - and keeps every key under {<tenant>/Model}', async () => {
  await checkProperty(
    'tenants',
    fc.asyncProperty(
      fc.oneof(
        nastyString({ maxLength: 10 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
        fc.constantFrom('', '*', 'a/b', '{x}', 'a:b', 'x'.repeat(64), 'x'.repeat(65)),
      ),
      wellFormedString(8),
      async (tenant, value) => {
        await reset();
        let Scoped: typeof Item | undefined;
        try {
          Scoped = Item.scope(tenant);
        } catch (error) {
          isTyped(error);
        }
        if (/^[A-Za-z0-9_-]{1,64}$/.test(tenant) !== (Scoped !== undefined))
          throw new Error(`tenant ${JSON.stringify(tenant)} wrongly ${Scoped ? 'accepted' : 'refused'}`);
        if (Scoped) {
          const item = await Scoped.create({ tag: value, text: value, extra: { k: value } });
          expectExactly((await Scoped.find(item.id!))!.tag, value, 'tenant round trip');
          if (!(await Scoped.findIds({ text: value })).includes(item.id!)) throw new Error('tenant query misses the object');
          await item.increment('score', 2);
          await assertNamespace(`${context.prefix}:{${tenant}/BadOpsItem}`);
          await Scoped.drop();
          await assertNamespace(`${context.prefix}:{${tenant}/BadOpsItem}`);
        }
        assertPrototypeClean();
        context.cases.add('tenant names');
      },
    ),
    150,
  );
});

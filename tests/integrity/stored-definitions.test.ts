import {
  Attr,
  BaseEntity,
  BelongsTo,
  Codec,
  Counter,
  DynamicAttrs,
  HasMany,
  Index,
  ManyToMany,
  Model,
  SortableString,
  Unique,
  Version,
} from '../../src';
import { storedDefinitions } from '../../src/admin';
import { describeModel } from '../../src/schema/describe-model';
import { indexName, StoredDefinition } from '../../src/schema/stored-definition';
import { parseDefinition, StoredDefinitionError } from '../../src/schema/parse-definition';
import { descriptorOf } from '../../src/model/model-registry';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * A stored definition (`<prefix>#models`) is read only when it is one redis-record could have written, under
 * the field it names: anything else is broken (never used to name keys), as a definition that is not JSON.
 */

const cents: Codec<bigint> = { encode: (value) => value.toString(), decode: (raw) => BigInt(raw) };

@Model({ group: 'sdshop', ttl: 60 })
class SdOrder extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) ref?: string;
  @Attr({ codec: cents }) @Index() total?: bigint;
  @Attr() @Index({ sortable: true, scope: 'customerId' }) note?: SortableString;
  @Counter() views?: number;
  @Version() version?: number;
  @DynamicAttrs() extra: Record<string, string> = {};
  @BelongsTo(() => SdCustomer) customer!: BelongsTo<SdCustomer>;
  customerId?: string;
  @ManyToMany(() => SdTag) tags!: ManyToMany<SdTag>;
}

@Model({ group: 'sdshop', cap: { by: 'score', keep: 10, order: 'asc' } })
class SdCustomer extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() joined?: Date;
  @Attr({ type: 'json' }) prefs?: string[];
  @HasMany(() => SdOrder, { inverse: 'customer', onDelete: 'nullify' }) orders!: HasMany<SdOrder>;
}

@Model({ shards: 4, idStrategy: 'uuid' })
class SdTag extends BaseEntity {
  @Attr() @Index() label?: string;
  @Attr() active?: boolean;
}

const redis = useTestRedis();
const definitionOf = (model: Function) => describeModel(descriptorOf(model));
const json = (definition: unknown) => JSON.stringify(definition);

describe('parseDefinition', () => {
  it('reads what the library stores for every kind of model', () => {
    for (const model of [SdOrder, SdCustomer, SdTag]) {
      const definition = definitionOf(model);
      expect(parseDefinition(json(definition), definition.name)).toEqual(definition);
    }
  });

  it.each<[string, (definition: StoredDefinition) => unknown, string]>([
    ['an incomplete one', () => ({ format: 1, indexes: [] }), 'name must be a model name (1 to 64 letters, digits or _), got nothing'],
    ['another format', (d) => ({ ...d, format: 2 }), 'format must be 1, got 2'],
    ['no object', () => [1], 'it must be an object, got [1]'],
    [
      'a name that breaks the model-name rule',
      (d) => ({ ...d, name: 'Sd{Order}' }),
      'name must be a model name (1 to 64 letters, digits or _), got "Sd{Order}"',
    ],
    [
      'a group that breaks the model-name rule',
      (d) => ({ ...d, group: 'sd}x' }),
      'group must be a model name (1 to 64 letters, digits or _), got "sd}x"',
    ],
    [
      "a layout that is not its group's",
      (d) => ({ ...d, layout: { ...d.layout, hashTag: 'model' } }),
      'layout.hashTag must be one of "group", got "model"',
    ],
    [
      'an unknown id strategy',
      (d) => ({ ...d, idStrategy: 'random' }),
      'idStrategy must be one of "sequence", "uuid", "given", got "random"',
    ],
    [
      'a ttl that is no whole number',
      (d) => ({ ...d, ttlMs: '60000' }),
      'ttlMs must be a whole number from 1 to 9007199254740991, got "60000"',
    ],
    ['attributes that are no array', (d) => ({ ...d, attributes: null }), 'attributes must be an array, got null'],
    [
      'an attribute of an unknown type',
      (d) => ({ ...d, attributes: [{ ...d.attributes[0], type: 'bigint' }] }),
      'attributes[0].type must be one of',
    ],
    [
      'an index attribute that is no identifier',
      (d) => ({ ...d, indexes: [{ ...d.indexes[0], attribute: 'a:b' }] }),
      'indexes[0].attribute must be an attribute name (an identifier), got "a:b"',
    ],
    ['an index of an unknown kind', (d) => ({ ...d, indexes: [{ ...d.indexes[0], kind: 'geo' }] }), 'indexes[0].kind must be one of'],
    [
      'a relation target that breaks the model-name rule',
      (d) => ({ ...d, relations: [{ ...d.relations[0], target: 'No}' }] }),
      'relations[0].target must be a model name',
    ],
    [
      'a relation of an unknown kind',
      (d) => ({ ...d, relations: [{ kind: 'hasOne', property: 'x', target: 'SdTag' }] }),
      'relations[0].kind must be one of',
    ],
    ['stale names that are not strings', (d) => ({ ...d, stale: [1] }), 'stale[0] must be a string, got 1'],
    ['no hash', (d) => ({ ...d, hash: undefined }), 'hash must be a string, got nothing'],
  ])('refuses %s', (_, damage, why) => {
    const definition = definitionOf(SdOrder);
    const parse = () => parseDefinition(json(damage(definition)), definition.name);
    expect(parse).toThrow(StoredDefinitionError);
    expect(parse).toThrow(`not a stored model definition of format 1: ${why}`);
  });

  it('refuses one stored under another name than its own', () => {
    expect(() => parseDefinition(json(definitionOf(SdTag)), 'SdEvil')).toThrow(
      new StoredDefinitionError(
        'not a stored model definition of format 1: name must be the name it is stored under ("SdEvil"), got "SdTag"',
      ),
    );
  });
});

describe('a broken stored definition in Redis', () => {
  it('is named by storedDefinitions(); the model it names keeps its own', async () => {
    await SdTag.create({ label: 'a' });
    await redis.raw.hSet(`${redis.prefix}#models`, 'SdEvil', json({ ...definitionOf(SdTag), indexes: [] }));
    try {
      await expect(storedDefinitions(redis.raw, redis.prefix)).rejects.toThrow(
        'the stored definition of model "SdEvil" cannot be read (not a stored model definition of format 1: name must be the name it is stored under ("SdEvil"), got "SdTag")',
      );
      expect((await SdTag.check()).violations).toEqual([]);
    } finally {
      await redis.raw.hDel(`${redis.prefix}#models`, 'SdEvil');
    }
  });
});

/** A model whose every kind of entry (set, score, lex, unique, memo) a reindex must write again. */
@Model({ group: 'sdrebuild', ttl: 600 })
class SdInvoice extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) ref?: string;
  @Attr() @Index() total?: number;
  @Attr() @Index() status?: string;
  @Attr() @Index({ sortable: true, scope: 'payerId' }) note?: SortableString;
  @BelongsTo(() => SdPayer) payer!: BelongsTo<SdPayer>;
  payerId?: string;
}

@Model({ group: 'sdrebuild' })
class SdPayer extends BaseEntity {
  @Attr() name?: string;
  @HasMany(() => SdInvoice, { inverse: 'payer', onDelete: 'cascade' }) invoices!: HasMany<SdInvoice>;
}

describe("a model's own stored definition that cannot be read", () => {
  it.each<[string, string]>([
    ['not JSON', '{broken'],
    ['not a definition', JSON.stringify({ format: 1, indexes: [] })],
  ])('(%s) is replaced by reindex(), which rebuilds every index and memo from the objects', async (_, broken) => {
    const payer = await SdPayer.create({ name: 'p' });
    const invoice = SdInvoice.build({ ref: 'Inv-1', total: 12, status: 'open', note: 'first' as SortableString });
    invoice.payer.set(payer);
    await invoice.save();
    const models = `${redis.prefix}#models`;
    await redis.raw.hSet(models, 'SdInvoice', broken);
    // its entries lost while the definition is broken: only a rebuild of every index brings them back
    const entries = (await keysUnder(redis.raw, redis.prefix)).filter((key) => /\{sdrebuild\}:SdInvoice:(idx|lex|uniq|memo):/.test(key));
    expect(entries.length).toBeGreaterThanOrEqual(5);
    await redis.raw.del(entries);
    expect((await SdInvoice.check()).ok).toBe(false);

    const result = await SdInvoice.reindex();
    expect(result.rebuilt).toEqual(definitionOf(SdInvoice).indexes.map(indexName));
    expect(result).toMatchObject({ added: [], dropped: [], objects: 1 });
    expect((await SdInvoice.check()).violations).toEqual([]);
    expect((await storedDefinitions(redis.raw, redis.prefix)).get('SdInvoice')).toEqual({
      ...definitionOf(SdInvoice),
      memosKept: true,
      hash: expect.any(String),
    });
    expect((await SdInvoice.findBy({ total: { gte: 10 }, status: 'open' })).map((found) => found.id)).toEqual([invoice.id]);
    expect((await SdInvoice.findOneBy({ ref: 'INV-1' }))?.id).toBe(invoice.id);
    expect(await payer.invoices.findIds()).toEqual([invoice.id]);
    await payer.remove();
    expect(await SdInvoice.count()).toBe(0);
    expect(await keysUnder(redis.raw, `${redis.prefix}:{sdrebuild}:SdInvoice:`)).toEqual([]);
  });
});

import {
  Attr,
  BaseEntity,
  BelongsTo,
  HasMany,
  Index,
  Model,
  RelationError,
  StaleObjectError,
  Unique,
  ValidationError,
  Version,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany on models with more than attributes: expiring objects, a cap, @Version, belongs-to parents and
 * removeMany's onDelete rules. Each item is checked and written as save() or remove() would do it alone.
 */

@Model({ ttl: 60 })
class BulkLog extends BaseEntity {
  @Attr() @Index() level!: string;
  @Attr() message?: string;
}

@Model({ cap: { by: 'score', keep: 3 } })
class BulkScore extends BaseEntity {
  @Attr() @Unique() player!: string;
  @Attr() @Index() score?: number;
}

@Model()
class BulkLedger extends BaseEntity {
  @Attr() total = 0;
  @Version() version?: number;
}

@Model({ group: 'bulkblog' })
class BulkAuthor extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => BulkArticle, { inverse: 'author' }) articles!: HasMany<BulkArticle>; // onDelete 'restrict'
  @HasMany(() => BulkDraft, { inverse: 'author', onDelete: 'cascade' }) drafts!: HasMany<BulkDraft>;
}

@Model({ group: 'bulkblog' })
class BulkArticle extends BaseEntity {
  @BelongsTo(() => BulkAuthor) author!: BelongsTo<BulkAuthor>;
  authorId?: string;
  @Attr() @Index() title!: string;
}

@Model({ group: 'bulkblog' })
class BulkDraft extends BaseEntity {
  @BelongsTo(() => BulkAuthor) author!: BelongsTo<BulkAuthor>;
  authorId?: string;
  @Attr() text!: string;
}

const redis = useTestRedis();

describe('saveMany on expiring and capped models', () => {
  it('gives each new object its TTL, memo and exp entry', async () => {
    const result = await BulkLog.saveMany([{ level: 'info' }, { level: 'warn', message: 'disk' }]);
    expect(result.ok).toBe(true);
    for (const log of result.saved) {
      const ttl = await log.ttl();
      expect(ttl).toBeGreaterThan(55);
      expect(ttl).toBeLessThanOrEqual(60);
    }
    const base = `${redis.prefix}:{BulkLog}`;
    expect(await redis.raw.zCard(`${base}:exp`)).toBe(2);
    expect(await redis.raw.exists(`${base}:memo:${result.saved[0].id}`)).toBe(1);
    await expectIndexesConsistent(BulkLog, redis.raw, redis.prefix);
  });

  it('keeps a capped model to its top objects after each item, as one save after another would', async () => {
    const result = await BulkScore.saveMany([
      { player: 'a', score: 5 },
      { player: 'b', score: 9 },
      { player: 'c', score: 1 },
      { player: 'd', score: 7 },
      { player: 'c', score: 8 }, // 'c' was evicted by 'd': its unique value is free again
      { player: 'e' }, // no score: the cap needs one
    ]);
    expect(result.saved.map((score) => score.player)).toEqual(['a', 'b', 'c', 'd', 'c']);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor])).toEqual([[5, ValidationError]]);
    const kept = await BulkScore.findBy({}, { orderBy: { score: 'desc' } });
    expect(kept.map((score) => [score.player, score.score])).toEqual([
      ['b', 9],
      ['c', 8],
      ['d', 7],
    ]);
    await expectIndexesConsistent(BulkScore, redis.raw, redis.prefix);
  });
});

describe('saveMany and @Version', () => {
  it('sets version 1 on new objects; a stale instance fails with StaleObjectError, the others are saved', async () => {
    const { saved } = await BulkLedger.saveMany([{ total: 1 }, { total: 2 }]);
    expect(saved.map((ledger) => ledger.version)).toEqual([1, 1]);
    const other = await BulkLedger.findOrFail(saved[0].id);
    other.total = 10;
    await other.save();
    saved[0].total = 100; // read at version 1, stored is 2 now
    saved[1].total = 200;
    const result = await BulkLedger.saveMany(saved);
    expect(result.saved).toEqual([saved[1]]);
    expect(result.failed[0].error).toBeInstanceOf(StaleObjectError);
    expect(saved[1].version).toBe(2);
    expect((await BulkLedger.findOrFail(saved[0].id)).total).toBe(10);
    expect((await BulkLedger.findOrFail(saved[1].id)).total).toBe(200);
  });
});

describe('saveMany with belongs-to parents', () => {
  it('checks each new object parent: a missing parent fails that item with RelationError', async () => {
    const ann = await BulkAuthor.create({ name: 'ann' });
    const result = await BulkArticle.saveMany([
      { authorId: ann.id, title: 'first' },
      { authorId: '424242', title: 'orphan' },
      { title: 'no author' },
    ]);
    expect(result.saved.map((article) => article.title)).toEqual(['first', 'no author']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].error).toBeInstanceOf(RelationError);
    expect(result.failed[0].error.message).toContain('authorId');
    expect(await ann.articles.count()).toBe(1);
    await expectIndexesConsistent(BulkArticle, redis.raw, redis.prefix);
    await expectRelationsConsistent([BulkAuthor, BulkArticle, BulkDraft], redis.raw, redis.prefix);
  });
});

describe('removeMany', () => {
  it('reports removed, missing and invalid ids; removes each object with its index entries', async () => {
    const { saved } = await BulkLog.saveMany([{ level: 'a' }, { level: 'b' }, { level: 'c' }]);
    const result = await BulkLog.removeMany([saved[0].id, 'no:such', '987654', Number(saved[1].id), saved[0].id, -1]);
    expect(result.removed).toEqual([saved[0].id, saved[1].id]);
    expect(result.missing).toEqual(['987654']);
    expect(result.failed.map((failure) => [failure.index, failure.id, failure.error.name])).toEqual([
      [1, 'no:such', 'InvalidIdError'],
      [5, '-1', 'InvalidIdError'],
    ]);
    expect(result.ok).toBe(false);
    expect(await BulkLog.exists(saved[2].id)).toBe(true);
    await expectIndexesConsistent(BulkLog, redis.raw, redis.prefix);
  });

  it("refuses only the objects an onDelete 'restrict' protects; cascades the others' dependents", async () => {
    const { saved: authors } = await BulkAuthor.saveMany([{ name: 'kept' }, { name: 'gone' }]);
    await BulkArticle.create({ authorId: authors[0].id, title: 'protects kept' });
    const { saved: drafts } = await BulkDraft.saveMany([
      { authorId: authors[1].id, text: 'd1' },
      { authorId: authors[1].id, text: 'd2' },
    ]);
    const result = await BulkAuthor.removeMany(authors.map((author) => author.id));
    expect(result.removed).toEqual([authors[1].id]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ id: authors[0].id, removed: false });
    expect(result.failed[0].error).toBeInstanceOf(RelationError);
    expect(await BulkAuthor.exists(authors[0].id)).toBe(true);
    expect(await BulkDraft.findMany(drafts.map((draft) => draft.id))).toEqual([null, null]);
    await expectRelationsConsistent([BulkAuthor, BulkArticle, BulkDraft], redis.raw, redis.prefix);
  });

  it('removes objects of a model with nothing but hashes in one transaction per chunk', async () => {
    const { saved } = await BulkLedger.saveMany(Array.from({ length: 25 }, (_, total) => ({ total })));
    const before = await BulkLedger.count();
    const result = await BulkLedger.removeMany(
      saved.map((ledger) => ledger.id),
      { chunkSize: 10 },
    );
    expect(result.ok).toBe(true);
    expect(result.removed).toEqual(saved.map((ledger) => ledger.id));
    expect(await BulkLedger.count()).toBe(before - 25);
    expect(await BulkLedger.findMany(saved.map((ledger) => ledger.id))).toEqual(saved.map(() => null));
  });

  it('rejects a call that is not given an array', async () => {
    await expect(BulkLedger.removeMany('1' as never)).rejects.toThrow('removeMany: expected an array of ids');
    await expect(BulkLedger.removeMany([], { chunkSize: -1 })).rejects.toThrow('chunkSize');
  });
});

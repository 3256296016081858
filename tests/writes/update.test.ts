import { IsEmail, IsOptional, MaxLength } from 'class-validator';
import {
  ArgumentError,
  Attr,
  BaseEntity,
  BelongsTo,
  BeforeSave,
  Counter,
  Index,
  Model,
  NotFoundError,
  RelationError,
  StaleObjectError,
  Unique,
  UniqueConstraintError,
  ValidationError,
  Version,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { modelKeyDump } from '../support/key-dump';
import { useScriptCalls } from '../support/script-calls';
import { scripts } from '../../src/store/scripts';

/**
 * Model.update(id, attributes): the given attributes written without loading the object, in one script that
 * reads the old indexed values itself, and the object as stored after the write in its reply. Every refusal
 * writes nothing.
 */

@Model()
class UpAuthor extends BaseEntity {
  @Attr() name!: string;
}

@Model()
class UpPost extends BaseEntity {
  @Attr() @Index() status!: string;
  @Attr() @Index() score?: number;
  @Attr() @MaxLength(10) title!: string;
  @Attr() @Unique({ caseInsensitive: true }) @IsOptional() @IsEmail() contact?: string;
  @Attr() body?: string;
  authorId?: string;
  @BelongsTo(() => UpAuthor) author!: BelongsTo<UpAuthor>;
  @Counter() views = 0;
  hooked = 0;
  @BeforeSave() touch() {
    this.hooked++;
  }
}

@Model()
class UpDoc extends BaseEntity {
  @Attr() text!: string;
  @Version() version!: number;
}

@Model({ cap: { by: 'rank', keep: 2 } })
class UpTop extends BaseEntity {
  @Attr() @Index() rank!: number;
  @Attr() who!: string;
}

@Model({ shards: 4 })
@Unique(['userId', 'room'])
class UpSeat extends BaseEntity {
  @Attr() userId?: string;
  @Attr() room?: string;
}

const redis = useTestRedis();
const calls = useScriptCalls(redis);

const keysOf = (model: string) => modelKeyDump(redis.raw, redis.prefix, model);

describe('Model.update', () => {
  it('writes the given attributes in one script call and resolves with the object as stored', async () => {
    const post = await UpPost.create({ status: 'draft', title: 'one', body: 'text', score: 3 });
    calls.reset();
    const updated = await UpPost.update(post.id, { status: 'live', score: 7 });
    expect(calls.sent(scripts.upsert())).toBe(1);
    expect(updated).toBeInstanceOf(UpPost);
    expect(updated.isPersisted()).toBe(true);
    expect({ ...updated.toJSON() }).toEqual({ id: post.id, status: 'live', score: 7, title: 'one', body: 'text', views: 0 });
    expect(updated.hooked).toBe(0); // no hook runs
    expect(await UpPost.findIds({ status: 'live' })).toEqual([post.id]);
    expect(await UpPost.findIds({ status: 'draft' })).toEqual([]);
    expect(await UpPost.findIds({ score: { gte: 5 } })).toEqual([post.id]);
    await expectIndexesConsistent(UpPost, redis.raw, redis.prefix);
  });

  it('removes an attribute given null and leaves one given undefined', async () => {
    const post = await UpPost.create({ status: 'a', title: 't', body: 'kept', score: 1 });
    const updated = await UpPost.update(post.id, { score: null, body: undefined });
    expect([updated.score, updated.body]).toEqual([undefined, 'kept']);
    expect(await redis.raw.hExists(`${redis.prefix}:{UpPost}:obj:${post.id}`, 'score')).toBeFalsy();
    await expectIndexesConsistent(UpPost, redis.raw, redis.prefix);
  });

  it('is a NotFoundError for a missing object, writing nothing', async () => {
    const before = await keysOf('UpPost');
    const error = await UpPost.update('999', { status: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ model: 'UpPost', id: '999' });
    expect(await keysOf('UpPost')).toEqual(before);
  });

  it('keeps unique values exact: a taken one is refused, a freed one can be taken', async () => {
    const a = await UpPost.create({ status: 's', title: 'a', contact: 'A@x.io' });
    const b = await UpPost.create({ status: 's', title: 'b', contact: 'b@x.io' });
    const before = await keysOf('UpPost');
    const taken = await UpPost.update(b.id, { contact: 'a@X.io', status: 'moved' }).catch((caught: unknown) => caught);
    expect(taken).toBeInstanceOf(UniqueConstraintError);
    expect(taken).toMatchObject({ attribute: 'contact', value: 'a@X.io' });
    expect(await keysOf('UpPost')).toEqual(before);
    await UpPost.update(a.id, { contact: null });
    expect((await UpPost.update(b.id, { contact: 'a@x.io' })).contact).toBe('a@x.io');
    expect((await UpPost.findOneBy({ contact: 'A@X.IO' }))?.id).toBe(b.id);
    await expectIndexesConsistent(UpPost, redis.raw, redis.prefix);
  });

  it('checks foreign keys as save() does', async () => {
    const author = await UpAuthor.create({ name: 'ann' });
    const post = await UpPost.create({ status: 'r', title: 'r' });
    expect((await UpPost.update(post.id, { authorId: author.id })).authorId).toBe(author.id);
    const before = await keysOf('UpPost');
    await expect(UpPost.update(post.id, { authorId: '404' })).rejects.toThrow(RelationError);
    expect(await keysOf('UpPost')).toEqual(before);
  });

  it('validates only the given attributes, and refuses unknown names', async () => {
    const post = await UpPost.create({ status: 'v', title: 'valid' });
    // title is not given: its rule does not run on the missing value
    expect((await UpPost.update(post.id, { status: 'w' })).status).toBe('w');
    const before = await keysOf('UpPost');
    const invalid = await UpPost.update(post.id, { title: 'far too long a title', status: 'x' }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).errors.map((e) => e.property)).toEqual(['title']);
    expect((await UpPost.update(post.id, { title: 'far too long a title' }, { validate: false })).title).toBe('far too long a title');
    await UpPost.update(post.id, { title: 'short' });
    const after = await keysOf('UpPost');
    const unknown = await UpPost.update(post.id, { nope: 1 } as never).catch((caught: unknown) => caught);
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(String(unknown)).toContain('UpPost has no attribute nope');
    await expect(UpPost.update(post.id, { id: '3' } as never)).rejects.toThrow(ArgumentError);
    await expect(UpPost.update(post.id, 'title' as never)).rejects.toThrow(ArgumentError);
    await expect(UpPost.update(post.id, {}, { waitReplicas: 1 } as never)).rejects.toThrow(ArgumentError);
    expect(await keysOf('UpPost')).toEqual(after);
    expect(before).not.toEqual(after);
  });

  it('with @Version: bumps the version, and refuses a version given that is not the stored one', async () => {
    const doc = await UpDoc.create({ text: 'v1' });
    const second = await UpDoc.update(doc.id, { text: 'v2' });
    expect([second.text, second.version]).toEqual(['v2', 2]);
    await expect(UpDoc.update(doc.id, { text: 'stale', version: 1 })).rejects.toThrow(StaleObjectError);
    const third = await UpDoc.update(doc.id, { text: 'v3', version: 2 });
    expect([third.text, third.version]).toEqual(['v3', 3]);
    // the instance loaded before is now stale for save()
    doc.text = 'late';
    await expect(doc.save()).rejects.toThrow(StaleObjectError);
    expect((await UpDoc.findOrFail(doc.id)).text).toBe('v3');
  });

  it('writes a @Counter given, keeping its index', async () => {
    const post = await UpPost.create({ status: 'c', title: 'c' });
    await post.increment('views', 2);
    expect((await UpPost.update(post.id, { views: 10 })).views).toBe(10);
    expect(await post.increment('views')).toBe(11);
  });

  it('keeps a cap: an update that raises an object evicts the lowest; the cap attribute cannot be removed', async () => {
    const low = await UpTop.create({ rank: 1, who: 'low' });
    const mid = await UpTop.create({ rank: 2, who: 'mid' });
    const high = await UpTop.create({ rank: 3, who: 'high' });
    expect(await UpTop.exists(low.id)).toBe(false);
    expect((await UpTop.update(mid.id, { rank: 5 })).rank).toBe(5);
    await expect(UpTop.update(high.id, { rank: null })).rejects.toThrow(ValidationError);
    expect((await UpTop.findBy({}, { orderBy: { rank: 'desc' } })).map((top) => top.who)).toEqual(['mid', 'high']);
    await expectIndexesConsistent(UpTop, redis.raw, redis.prefix);
  });

  it('claims a composite unique across the shards of a sharded model, given whole', async () => {
    const seats = await Promise.all(['a', 'b', 'c', 'd'].map((room) => UpSeat.create({ userId: 'u', room })));
    const before = await UpSeat.findBy({}).then((found) => found.map((seat) => seat.toJSON()));
    const partial = await UpSeat.update(seats[1].id, { room: 'a' }).catch((caught: unknown) => caught);
    expect(partial).toBeInstanceOf(ArgumentError);
    expect(String(partial)).toContain('give every part of the composite unique (userId, room) or none');
    await expect(UpSeat.update(seats[1].id, { userId: 'u', room: 'a' })).rejects.toThrow(UniqueConstraintError);
    expect(await UpSeat.findBy({}).then((found) => found.map((seat) => seat.toJSON()))).toEqual(before);
    await UpSeat.update(seats[0].id, { userId: null, room: null });
    expect((await UpSeat.update(seats[1].id, { userId: 'u', room: 'a' })).room).toBe('a');
    expect((await UpSeat.check()).violations).toEqual([]);
  });

  it('works in a tenant, under its keys alone', async () => {
    const Acme = UpPost.scope('acme');
    const post = await Acme.create({ status: 't', title: 't' });
    expect((await Acme.update(post.id, { status: 'u' })).status).toBe('u');
    expect(await Acme.findIds({ status: 'u' })).toEqual([post.id]);
    expect(await UpPost.findIds({ status: 'u' })).toEqual([]);
  });
});

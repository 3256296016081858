import { MaxLength } from 'class-validator';
import {
  ArgumentError,
  Attr,
  BaseEntity,
  BelongsTo,
  Index,
  Model,
  RelationError,
  Unique,
  UniqueConstraintError,
  ValidationError,
  Version,
} from '../../src';
import { scripts } from '../../src/store/scripts';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useScriptCalls } from '../support/script-calls';
import { useTestRedis } from '../support/test-redis';
import { modelKeyDump } from '../support/key-dump';
import { reportOf } from '../support/worker-processes/spawn-worker';
import { FeedItem } from '../support/write-workers/worker-models';
import { useWriteWorkers } from '../support/write-workers/use-workers';

/**
 * Model.upsert(attributes, { on }): the object holding the unique value `on` is updated, or created, in one
 * script; `update: false` leaves an existing one as it is. Processes racing on the same values make one
 * object per value.
 */

@Model()
class UsFeed extends BaseEntity {
  @Attr() name!: string;
}

@Model()
class UsItem extends BaseEntity {
  @Attr() @Unique() url!: string;
  @Attr() @Unique({ caseInsensitive: true }) slug?: string;
  @Attr() @Index() @MaxLength(12) title!: string;
  @Attr() body?: string;
  @Version() version?: number;
  feedId?: string;
  @BelongsTo(() => UsFeed) feed!: BelongsTo<UsFeed>;
}

@Model({ idStrategy: 'uuid' })
class UsToken extends BaseEntity {
  @Attr() @Unique() value!: string;
  @Attr() owner!: string;
}

@Model({ idStrategy: 'given' })
class UsSession extends BaseEntity {
  @Attr() @Unique() token!: string;
  @Attr() user!: string;
}

@Model()
@Unique(['userId', 'channelId'])
class UsMember extends BaseEntity {
  @Attr() userId!: string;
  @Attr() channelId?: string;
  @Attr() role?: string;
}

const redis = useTestRedis();
const calls = useScriptCalls(redis);
const workers = useWriteWorkers(redis);

const keysOf = (model: string) => modelKeyDump(redis.raw, redis.prefix, model);

describe('Model.upsert', () => {
  it('creates the object when no object holds the value, else updates that one, in one script call each', async () => {
    calls.reset();
    const first = await UsItem.upsert({ url: 'a', title: 'first', body: 'b1' }, { on: 'url' });
    expect(first.created).toBe(true);
    expect(first.entity).toBeInstanceOf(UsItem);
    expect(first.entity.toJSON()).toEqual({ id: first.entity.id, url: 'a', title: 'first', body: 'b1', version: 1 });
    const second = await UsItem.upsert({ url: 'a', title: 'second' }, { on: 'url' });
    expect(calls.sent(scripts.upsert())).toBe(2);
    expect(second.created).toBe(false);
    // the attributes given are written; the others are kept
    expect(second.entity.toJSON()).toEqual({ id: first.entity.id, url: 'a', title: 'second', body: 'b1', version: 2 });
    expect(await UsItem.count()).toBe(1);
    expect(await UsItem.findIds({ title: 'second' })).toEqual([first.entity.id]);
    expect(await UsItem.findIds({ title: 'first' })).toEqual([]);
    await expectIndexesConsistent(UsItem, redis.raw, redis.prefix);
  });

  it('with update: false leaves an existing object as it is, and still creates an absent one', async () => {
    const kept = await UsItem.upsert({ url: 'k', title: 'kept' }, { on: 'url', update: false });
    expect(kept.created).toBe(true);
    const again = await UsItem.upsert({ url: 'k', title: 'ignored' }, { on: 'url', update: false });
    expect([again.created, again.entity.id, again.entity.title, again.entity.version]).toEqual([false, kept.entity.id, 'kept', 1]);
  });

  it('finds a case-insensitive unique value whatever its case', async () => {
    const made = await UsItem.upsert({ url: 'ci1', slug: 'Hello', title: 't' }, { on: 'slug' });
    const found = await UsItem.upsert({ url: 'ci1', slug: 'HELLO', title: 'u' }, { on: 'slug' });
    expect([found.created, found.entity.id, found.entity.slug]).toEqual([false, made.entity.id, 'HELLO']);
    await expectIndexesConsistent(UsItem, redis.raw, redis.prefix);
  });

  it('refuses, writing nothing: another unique value taken, a missing parent, an invalid value', async () => {
    await UsItem.upsert({ url: 'x1', slug: 'one', title: 'x' }, { on: 'url' });
    await UsItem.upsert({ url: 'x2', slug: 'two', title: 'x' }, { on: 'url' });
    const before = await keysOf('UsItem');
    const taken = await UsItem.upsert({ url: 'x2', slug: 'ONE', title: 'y' }, { on: 'url' }).catch((caught: unknown) => caught);
    expect(taken).toBeInstanceOf(UniqueConstraintError);
    expect(taken).toMatchObject({ attribute: 'slug' });
    await expect(UsItem.upsert({ url: 'x3', title: 'x', feedId: '404' }, { on: 'url' })).rejects.toThrow(RelationError);
    await expect(UsItem.upsert({ url: 'x3', title: 'a title far too long' }, { on: 'url' })).rejects.toThrow(ValidationError);
    expect(await keysOf('UsItem')).toEqual(before);
    const feed = await UsFeed.create({ name: 'f' });
    expect((await UsItem.upsert({ url: 'x3', title: 'x', feedId: feed.id }, { on: 'url' })).entity.feedId).toBe(feed.id);
  });

  it('refuses an on that is no single @Unique attribute, or whose value is not given, with ArgumentError', async () => {
    const before = await keysOf('UsItem');
    const notUnique = await UsItem.upsert({ url: 'n', title: 'n' }, { on: 'title' }).catch((caught: unknown) => caught);
    expect(notUnique).toBeInstanceOf(ArgumentError);
    expect(String(notUnique)).toContain('or the attributes of a composite unique ("url", "slug"), got "title"');
    const list = await UsItem.upsert({ url: 'n', title: 'n' }, { on: ['url', 'slug'] }).catch((caught: unknown) => caught);
    expect(list).toBeInstanceOf(ArgumentError);
    await expect(UsItem.upsert({ title: 'n' }, { on: 'url' })).rejects.toThrow(/hold no value of url/);
    await expect(UsItem.upsert({ url: 'n', title: 'n' }, {} as never)).rejects.toThrow(ArgumentError);
    await expect(UsItem.upsert({ url: 'n', title: 'n' }, { on: 'url', update: 'no' } as never)).rejects.toThrow(ArgumentError);
    await expect(UsItem.upsert({ url: 'n', title: 'n' }, { on: 'url', retries: 1 } as never)).rejects.toThrow(ArgumentError);
    expect(await keysOf('UsItem')).toEqual(before);
  });

  it('upserts on the attributes of a composite unique, in any order, all of them given', async () => {
    const first = await UsMember.upsert({ userId: 'u1', channelId: 'c1', role: 'reader' }, { on: ['userId', 'channelId'] });
    const again = await UsMember.upsert({ userId: 'u1', channelId: 'c1', role: 'admin' }, { on: ['channelId', 'userId'] });
    const other = await UsMember.upsert({ userId: 'u1', channelId: 'c2', role: 'reader' }, { on: ['userId', 'channelId'] });
    expect([first.created, again.created, other.created]).toEqual([true, false, true]);
    expect(again.entity).toMatchObject({ id: first.entity.id, role: 'admin' });
    const before = await keysOf('UsMember');
    await expect(UsMember.upsert({ userId: 'u2', role: 'reader' }, { on: ['userId', 'channelId'] })).rejects.toThrow(
      'UsMember.upsert: the attributes hold no value of channelId, which it is on',
    );
    await expect(UsMember.upsert({ userId: 'u2', channelId: 'c1' }, { on: ['userId'] })).rejects.toThrow(
      'or the attributes of a composite unique (["userId", "channelId"]), got an array',
    );
    expect(await keysOf('UsMember')).toEqual(before);
    expect(await UsMember.count()).toBe(2);
    await expectIndexesConsistent(UsMember, redis.raw, redis.prefix);
  });

  it('gives a created object of a uuid model a uuid, and one of a given-id model the id given', async () => {
    const token = await UsToken.upsert({ value: 'v', owner: 'ann' }, { on: 'value' });
    expect(token.entity.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await UsToken.upsert({ value: 'v', owner: 'bob' }, { on: 'value' })).entity).toMatchObject({
      id: token.entity.id,
      owner: 'bob',
    });
    const session = await UsSession.upsert({ id: 's-1', token: 't', user: 'ann' }, { on: 'token' });
    expect([session.created, session.entity.id]).toEqual([true, 's-1']);
    // the object holding the value keeps its id
    expect((await UsSession.upsert({ id: 's-2', token: 't', user: 'bob' }, { on: 'token' })).entity).toMatchObject({
      id: 's-1',
      user: 'bob',
    });
    const idTaken = await UsSession.upsert({ id: 's-1', token: 'other', user: 'cy' }, { on: 'token' }).catch((caught: unknown) => caught);
    expect(idTaken).toBeInstanceOf(UniqueConstraintError);
    expect(idTaken).toMatchObject({ attribute: 'id', value: 's-1' });
    await expect(UsSession.upsert({ token: 'none', user: 'cy' }, { on: 'token' })).rejects.toThrow(ValidationError);
    expect(await UsSession.count()).toBe(1);
  });

  it('works in a tenant, apart from the other tenants', async () => {
    const acme = await UsToken.scope('acme').upsert({ value: 'shared', owner: 'acme' }, { on: 'value' });
    const other = await UsToken.scope('other').upsert({ value: 'shared', owner: 'other' }, { on: 'value' });
    expect([acme.created, other.created]).toEqual([true, true]);
    expect((await UsToken.scope('acme').findOneBy({ value: 'shared' }))?.owner).toBe('acme');
  });

  it('makes exactly one object per value when 4 processes upsert the same values at once', async () => {
    const urls = Array.from({ length: 25 }, (_, i) => `https://feed/${i}`);
    const run = await workers.run('upsert', 4, (i) => ({ urls, rounds: 4, token: `w${i}`, lanes: 8 }));
    const reports = run.map((worker) => reportOf<{ created: string[]; ids: Record<string, string[]> }>(worker));
    // each url created once, by one of the processes; every answer for a url names that one object
    expect(reports.flatMap((report) => report.created).sort()).toEqual([...urls].sort());
    for (const url of urls) {
      const ids = new Set(reports.flatMap((report) => report.ids[url]));
      expect(ids.size).toBe(1);
      expect((await FeedItem.findOneBy({ url }))?.id).toBe([...ids][0]);
    }
    expect(await FeedItem.count()).toBe(urls.length);
    expect(await FeedItem.count({ feed: 'f' })).toBe(urls.length);
    await expectIndexesConsistent(FeedItem, redis.raw, redis.prefix);
  });
});

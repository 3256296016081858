import { Attr, BaseEntity, BelongsTo, Counter, Index, Model, SchemaError, Unique, UniqueConstraintError } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { descriptorOf } from '../../src/model/model-registry';
import { expectShardsConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { CLAIM_GRACE_MS } from '../../src/store/unique-claims';
import { seeded } from '../../tools/seeded-random';

/**
 * @Model({ shards }): one model spread over several hash tags. Every single-object operation works on the
 * object's shard; queries run in every shard and are merged so that the results are exactly those of an
 * unsharded model with the same data; unique values hold across shards through claims.
 */

@Model({ shards: 8 })
class ShardedPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() @Index({ scope: 'topic' }) score?: number;
  @Attr() @Index({ sortable: true }) title?: string;
  @Attr() @Index() publishedAt?: Date;
  @Counter() views = 0;
}

/** The same data, unsharded: the oracle for every query. */
@Model()
class PlainPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() @Index({ scope: 'topic' }) score?: number;
  @Attr() @Index({ sortable: true }) title?: string;
  @Attr() @Index() publishedAt?: Date;
  @Counter() views = 0;
}

@Model({ shards: 4 })
class ShardedAccount extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Unique() badge?: number;
  @Attr() name?: string;
}

@Model({ shards: 4, idStrategy: 'uuid', ttl: 3600 })
class ShardedSession extends BaseEntity {
  @Attr() @Index() user?: string;
  @Attr() @Unique() token?: string;
}

const redis = useTestRedis();

describe('definitions', () => {
  it.each([0, -1, 1.5, 1025, Number.NaN])('refuses shards: %p', (shards) => {
    expect(() => {
      @Model({ shards })
      class Bad extends BaseEntity {}
      return Bad;
    }).toThrow(SchemaError);
  });

  it('refuses what needs atomicity across objects: groups, caps, relations', () => {
    expect(() => {
      @Model({ shards: 2, group: 'g' })
      class Grouped extends BaseEntity {}
      return Grouped;
    }).toThrow(/cannot be in a group/);
    expect(() => {
      @Model({ shards: 2, cap: { by: 'score', keep: 10 } })
      class Capped extends BaseEntity {
        @Attr() @Index() score?: number;
      }
      return Capped;
    }).toThrow(/cannot be capped/);
  });

  it('refuses a relation to a sharded model when the relation is first used', async () => {
    @Model({ name: 'ShardedParentTarget', shards: 2 })
    class Parent extends BaseEntity {}
    @Model({ name: 'ChildOfSharded' })
    class Child extends BaseEntity {
      @BelongsTo(() => Parent) parent?: BelongsTo<Parent>;
    }
    await expect(Child.create({})).rejects.toThrow(/is sharded/);
  });

  it('gives each shard a hash tag of its own, balanced over the slot range', () => {
    const bases = descriptorOf(ShardedPost)
      .shardKeys(redis.prefix)
      .map((keys) => keys.base);
    expect(new Set(bases).size).toBe(8);
    for (const [shard, base] of bases.entries()) expect(base).toMatch(new RegExp(`:\\{ShardedPost#${shard}\\.\\d+\\}$`));
    // a model that is not sharded keeps its one base
    expect(
      descriptorOf(PlainPost)
        .shardKeys(redis.prefix)
        .map((keys) => keys.base),
    ).toEqual([`${redis.prefix}:{PlainPost}`]);
  });
});

describe('objects', () => {
  it('creates with distinct sequence ids spread over the shards; find, update, increment and remove each go to the shard', async () => {
    const created = await Promise.all(Array.from({ length: 80 }, (_, i) => ShardedPost.create({ topic: `t${i % 3}`, score: i })));
    const ids = created.map((post) => post.id);
    expect(new Set(ids).size).toBe(80);
    const model = descriptorOf(ShardedPost);
    const perShard = new Map<string, number>();
    for (const id of ids) {
      expect(Number(id)).toBeGreaterThan(0);
      const keys = model.keysOf(redis.prefix, id);
      expect(await redis.raw.zScore(keys.all, id)).toBe(Number(id));
      expect(await redis.raw.hGet(keys.object(id), 'score')).not.toBeNull();
      perShard.set(keys.base, (perShard.get(keys.base) ?? 0) + 1);
    }
    // new objects go to the shards in turn
    expect(perShard.size).toBe(8);
    expect(Math.max(...perShard.values()) - Math.min(...perShard.values())).toBeLessThanOrEqual(1);

    expect(await ShardedPost.count()).toBe(80);
    const found = await ShardedPost.findMany([ids[5], 'nope' as never, ids[70], ids[5]].filter((id) => id !== 'nope'));
    expect(found.map((post) => post?.score)).toEqual([5, 70, 5]);
    const post = (await ShardedPost.find(ids[10]))!;
    post.score = 1000;
    await post.save();
    expect((await ShardedPost.find(ids[10]))!.score).toBe(1000);
    expect(await post.increment('views', 3)).toBe(3);
    await ShardedPost.withLock(ids[11], async (locked) => {
      locked.title = 'locked';
      await locked.save();
    });
    expect((await ShardedPost.find(ids[11]))!.title).toBe('locked');
    await post.remove();
    expect(await ShardedPost.find(ids[10])).toBeNull();
    expect(await ShardedPost.exists(ids[10])).toBe(false);
    expect(await ShardedPost.count()).toBe(79);
    await expectShardsConsistent(ShardedPost, redis.raw, redis.prefix);
    expect(await ShardedPost.check()).toMatchObject({ ok: true });
  });

  it('a well-formed id no sequence draws (naming no shard) is missing, as on an unsharded model', async () => {
    const kept = await ShardedPost.create({ topic: 'kept' });
    const oracle = await PlainPost.create({ topic: 'kept' });
    const outcome = <T>(promise: Promise<T>) =>
      promise.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.constructor.name }),
      );
    for (const id of ['abc', '0', 0, 'x-1']) {
      const seen = async (model: typeof ShardedPost | typeof PlainPost, other: string) => ({
        find: await outcome(model.find(id)),
        exists: await outcome(model.exists(id)),
        findMany: await outcome(model.findMany([id])),
        removeMany: await outcome(model.removeMany([id]).then(({ removed, missing }) => ({ removed, missing }))),
        withLock: await outcome(model.withLock(id, async () => 'ran')),
        stillThere: await model.exists(other),
      });
      expect({ id, ...(await seen(ShardedPost, kept.id!)) }).toEqual({ id, ...(await seen(PlainPost, oracle.id!)) });
    }
    expect(await ShardedPost.find(kept.id!)).not.toBeNull();
    const removed = await ShardedPost.removeMany([kept.id!, 'abc']);
    expect([removed.removed, removed.missing]).toEqual([[kept.id], ['abc']]);
    await oracle.remove();
  });
});

describe('queries merged over the shards', () => {
  beforeAll(async () => {
    for (const post of await ShardedPost.findBy({})) await post.remove();
    const random = seeded(7);
    const rows = Array.from({ length: 300 }, () => ({
      topic: `t${Math.floor(random() * 4)}`,
      score: Math.floor(random() * 50),
      title: random() < 0.1 ? undefined : `title ${Math.floor(random() * 40)}`,
      publishedAt: new Date(1_700_000_000_000 + Math.floor(random() * 100) * 1000),
    }));
    // the same rows in the same order: sequence ids differ between the models, so the oracle maps by position
    for (const row of rows) {
      await ShardedPost.create(row);
      await PlainPost.create(row);
    }
  });

  /** What an object is, without its id: the two models number their objects differently. */
  const shape = (post: ShardedPost | PlainPost) => [post.topic, post.score, post.title, post.publishedAt?.getTime()];

  const queries: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['everything by score desc, a middle page', {}, { orderBy: { score: 'desc' }, offset: 40, limit: 25 }],
    ['a topic by score, first page', { topic: 't1' }, { orderBy: { score: 'asc' }, limit: 10 }],
    ['a scoped window', { topic: 't2', score: { gte: 10, lt: 30 } }, { orderBy: { score: 'desc' }, limit: 15 }],
    ['titles in order, absent ones last', {}, { orderBy: { title: 'asc' }, offset: 250, limit: 50 }],
    ['titles descending', { score: { lte: 20 } }, { orderBy: { title: 'desc' }, limit: 30 }],
    ['newest first', { topic: { in: ['t0', 't3'] } }, { orderBy: { publishedAt: 'desc' }, limit: 20 }],
    ['startsWith, ordered by date', { title: { startsWith: 'title 1' } }, { orderBy: { publishedAt: 'asc' }, offset: 3, limit: 8 }],
    ['OR of two ranges', { OR: [{ score: { lt: 5 } }, { score: { gt: 45 } }] }, { orderBy: { score: 'asc' } }],
  ];

  it.each(queries)('%s: the same objects in the same order as an unsharded model', async (_, where, options) => {
    const sharded = await ShardedPost.findBy(where as never, options as never);
    const plain = await PlainPost.findBy(where as never, options as never);
    expect(sharded.length).toBe(plain.length);
    // within ties the two models order by their own ids: compare the order of the sort key, and the sets
    const key = Object.keys((options.orderBy as object) ?? {})[0] as 'score' | 'title' | 'publishedAt';
    const sortKey = (post: ShardedPost | PlainPost) => String(post[key] instanceof Date ? (post[key] as Date).getTime() : post[key]);
    expect(sharded.map(sortKey)).toEqual(plain.map(sortKey));
    expect(await ShardedPost.count(where as never)).toBe(await PlainPost.count(where as never));
    const ids = await ShardedPost.findIds(where as never, options as never);
    expect(ids).toEqual(sharded.map((post) => post.id));
  });

  it('orders ties by id, numerically, exactly as one shard does', async () => {
    const all = await ShardedPost.findBy({}, { orderBy: { score: 'asc' } });
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a.score! < b.score! || (a.score === b.score && Number(a.id) < Number(b.id))).toBe(true);
    }
    const desc = await ShardedPost.findBy({}, { orderBy: { score: 'desc' } });
    expect(desc.map((post) => post.id)).toEqual(all.map((post) => post.id).reverse());
  });

  it('unordered queries come in id order; iterate walks every match once', async () => {
    const ids = await ShardedPost.findIds({ topic: 't1' });
    expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
    expect(ids.length).toBe(await PlainPost.count({ topic: 't1' }));
    const seen: string[] = [];
    for await (const post of ShardedPost.iterate({ topic: 't1' }, { batchSize: 7 })) seen.push(post.id);
    expect(seen).toEqual(ids);
    const shapes = (await ShardedPost.findBy({ topic: 't1' })).map(shape);
    expect(shapes.sort()).toEqual((await PlainPost.findBy({ topic: 't1' })).map(shape).sort());
  });
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('unique values across shards', () => {
  it('20 concurrent creates of one value (in every shard): exactly one wins, the others write nothing', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        ShardedAccount.create({ email: i % 2 ? 'Race@Example.com' : 'race@example.COM', name: `n${i}` }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(UniqueConstraintError);
    }
    expect(await ShardedAccount.count()).toBe(1);
    expect(await ShardedAccount.findBy({ email: 'RACE@example.com' })).toHaveLength(1);
    await expectShardsConsistent(ShardedAccount, redis.raw, redis.prefix);
  });

  it('an update to a value another object holds is refused; changing and removing free the old value', async () => {
    const a = await ShardedAccount.create({ email: 'a@x.io', badge: 1 });
    const b = await ShardedAccount.create({ email: 'b@x.io', badge: 2 });
    b.email = 'A@X.IO';
    expect(await failure(b.save())).toBeInstanceOf(UniqueConstraintError);
    expect((await ShardedAccount.find(b.id))!.email).toBe('b@x.io');
    a.email = 'a2@x.io';
    await a.save();
    await b.save(); // a@x.io is free now
    expect((await ShardedAccount.find(b.id))!.email).toBe('A@X.IO');
    // b let b@x.io go: another object takes it at once
    const c = await ShardedAccount.create({ email: 'b@x.io', badge: 3 });
    await c.remove();
    await ShardedAccount.create({ email: 'b@x.io', badge: 3 });
    expect(await failure(ShardedAccount.create({ badge: 2 }))).toBeInstanceOf(UniqueConstraintError);
    expect(await failure(ShardedAccount.create({ badge: -0 }))).toBeUndefined();
    expect(await failure(ShardedAccount.create({ badge: 0 }))).toBeInstanceOf(UniqueConstraintError);
    await expectShardsConsistent(ShardedAccount, redis.raw, redis.prefix);
  });

  it('a claim left by a writer that died is taken over once stale, never while fresh', async () => {
    const key = (email: string) => claimKey(redis.prefix, 'ShardedAccount', undefined, 'email', email);
    // a writer claimed these values and died before writing its object (id 999999 does not exist)
    await redis.raw.set(key('fresh@x.io'), `999999 ${Date.now()}`);
    await redis.raw.set(key('stale@x.io'), `999999 ${Date.now() - 60_000}`);
    expect(await failure(ShardedAccount.create({ email: 'fresh@x.io' }))).toBeInstanceOf(UniqueConstraintError);
    const taker = await ShardedAccount.create({ email: 'stale@x.io' });
    expect((await redis.raw.get(key('stale@x.io')))!.split(' ')[0]).toBe(taker.id);
    // a stale claim whose holder does hold the value is not stale at all
    await redis.raw.set(key('stale@x.io'), `${taker.id} 0`);
    expect(await failure(ShardedAccount.create({ email: 'stale@x.io' }))).toBeInstanceOf(UniqueConstraintError);
    await redis.raw.del(key('fresh@x.io'));
  });
});

describe('expiry, tenants', () => {
  it('uuid ids go to the shard their digest names; expired objects are swept in every shard', async () => {
    const sessions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => ShardedSession.create({ user: `u${i % 2}`, token: `tok${i}` })),
    );
    const model = descriptorOf(ShardedSession);
    for (const session of sessions) expect(await redis.raw.exists(model.keysOf(redis.prefix, session.id).object(session.id))).toBe(1);
    expect(await ShardedSession.count({ user: 'u1' })).toBe(6);
    for (const session of sessions.slice(0, 5)) await session.expire(0.001);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await ShardedSession.count()).toBe(7);
    expect(await ShardedSession.sweep()).toBe(5);
    await expectShardsConsistent(ShardedSession, redis.raw, redis.prefix);
    // the token of an expired session is free again once its claim is stale (older than the grace period); the
    // claim's time is set here, so that a slow machine cannot make it stale before the first create
    const claim = claimKey(redis.prefix, 'ShardedSession', undefined, 'token', 'tok0');
    expect((await redis.raw.get(claim))!.split(' ')[0]).toBe(sessions[0].id);
    await redis.raw.set(claim, `${sessions[0].id} ${Date.now()}`);
    expect(await failure(ShardedSession.create({ user: 'u9', token: 'tok0' }))).toBeInstanceOf(UniqueConstraintError);
    await redis.raw.set(claim, `${sessions[0].id} ${Date.now() - CLAIM_GRACE_MS - 1}`);
    const renewed = await ShardedSession.create({ user: 'u9', token: 'tok0' });
    expect((await redis.raw.get(claim))!.split(' ')[0]).toBe(renewed.id);
  });

  it('a tenant scope of a sharded model has its own shards, and drop() deletes them and their claims', async () => {
    const Tenant = ShardedAccount.scope('acme');
    await Tenant.create({ email: 'boss@acme.io', badge: 1 });
    await Tenant.create({ email: 'a@x.io', badge: 1000 }); // taken outside the tenant: no conflict inside it
    expect(await Tenant.count()).toBe(2);
    expect(await failure(Tenant.create({ email: 'BOSS@acme.io' }))).toBeInstanceOf(UniqueConstraintError);
    const tenantKeys = async () => {
      const found: string[] = [];
      for await (const batch of redis.raw.scanIterator({ MATCH: `${redis.prefix}:{acme/ShardedAccount*`, COUNT: 1000 }))
        found.push(...batch);
      return found;
    };
    const before = await tenantKeys();
    // the shards' keys and the two claims
    expect(before.filter((key) => key.endsWith(':claim'))).toHaveLength(4);
    expect(await Tenant.drop()).toBe(before.length);
    expect(await tenantKeys()).toEqual([]);
    expect(await ShardedAccount.findBy({ email: 'a@x.io' })).toHaveLength(1);
    expect(await Tenant.count()).toBe(0);
  });
});

describe('bulk operations on sharded models', () => {
  @Model({ shards: 4 })
  class BulkSharded extends BaseEntity {
    @Attr() @Index() group?: string;
    @Attr() @Index() rank?: number;
  }

  it('saveMany spreads new objects over the shards and removeMany finds each in its shard', async () => {
    const result = await BulkSharded.saveMany(Array.from({ length: 400 }, (_, i) => BulkSharded.build({ group: `g${i % 5}`, rank: i })));
    expect(result.failed).toEqual([]);
    const ids = result.saved.map((entity) => entity.id);
    expect(new Set(ids).size).toBe(400);
    const model = descriptorOf(BulkSharded);
    const counts = await Promise.all(model.shardKeys(redis.prefix).map((keys) => redis.raw.zCard(keys.all)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(400);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(90);
    expect(await BulkSharded.count({ group: 'g2' })).toBe(80);
    expect((await BulkSharded.findBy({}, { orderBy: { rank: 'desc' }, limit: 3 })).map((e) => e.rank)).toEqual([399, 398, 397]);
    const removal = await BulkSharded.removeMany([...ids.slice(0, 100), '999999']);
    expect(removal.removed).toHaveLength(100);
    expect(removal.missing).toEqual(['999999']);
    expect(await BulkSharded.count()).toBe(300);
    await expectShardsConsistent(BulkSharded, redis.raw, redis.prefix);
  });

  it('saveMany claims unique values across shards object by object: a duplicate in the batch fails alone', async () => {
    const result = await ShardedAccount.saveMany([
      ShardedAccount.build({ email: 'bulk1@x.io' }),
      ShardedAccount.build({ email: 'BULK1@x.io' }),
      ShardedAccount.build({ email: 'bulk2@x.io' }),
    ]);
    expect(result.saved.map((a) => a.email).sort()).toEqual(expect.arrayContaining(['bulk2@x.io']));
    expect(result.saved).toHaveLength(2);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].error).toBeInstanceOf(UniqueConstraintError);
    await expectShardsConsistent(ShardedAccount, redis.raw, redis.prefix);
  });

  it('saveMany settles unique values changing hands as save() called in the given order: updates, then creates', async () => {
    // Each scenario, by sequential save() calls on an unsharded model and by one saveMany on the sharded one:
    // the same items must fail. Loaded objects get new handles; new objects come last in each list.
    @Model()
    class InOrderMember extends BaseEntity {
      @Attr() @Unique() handle?: string;
    }
    @Model({ shards: 4 })
    class ShardedMember extends BaseEntity {
      @Attr() @Unique() handle?: string;
    }
    type Step = { from: string; to: string } | { create: string };
    const scenarios: Step[][] = [
      // an update frees a value that a new object of the call takes (given after it, and before it)
      [{ from: 'a', to: 'a2' }, { create: 'a' }],
      [{ create: 'b' }, { from: 'b', to: 'b2' }],
      // a value passed on through a third one; a swap, which save() in order cannot make
      [
        { from: 'c', to: 'c3' },
        { from: 'd', to: 'c' },
      ],
      [
        { from: 'e', to: 'f' },
        { from: 'f', to: 'e' },
      ],
      // a chain whose first links wait for values still held
      [
        { from: 'g', to: 'h' },
        { from: 'h', to: 'i' },
        { from: 'i', to: 'j' },
      ],
      // two new objects wanting one value, beside independent ones
      [{ create: 'k' }, { create: 'free1' }, { create: 'k' }, { create: 'free2' }],
    ];
    for (const steps of scenarios) {
      const failures = async (model: typeof InOrderMember, bulk: boolean): Promise<number[]> => {
        const updates = steps.flatMap((step, index) => ('from' in step ? [{ step, index }] : []));
        const loaded = new Map<number, InOrderMember>();
        for (const { step, index } of updates) {
          const stored = await model.create({ handle: (step as { from: string }).from });
          loaded.set(index, (await model.find(stored.id))!);
        }
        const items = steps.map((step, index) => {
          if ('create' in step) return model.build({ handle: step.create });
          const entity = loaded.get(index)!;
          entity.handle = step.to;
          return entity;
        });
        let failed: number[];
        if (bulk) {
          failed = (await model.saveMany(items)).failed.map((failure) => failure.index);
        } else {
          // what saveMany promises: the updates first, then the new objects, each group in the given order
          failed = [];
          const order = [...items.keys()].sort(
            (x, y) => Number(items[x].isPersisted() ? 0 : 1) - Number(items[y].isPersisted() ? 0 : 1) || x - y,
          );
          for (const index of order) await items[index].save().catch(() => failed.push(index));
          failed.sort((x, y) => x - y);
        }
        await model.removeMany((await model.findIds()) as string[]);
        return failed;
      };
      const expected = await failures(InOrderMember, false);
      expect({ steps, failed: await failures(InOrderMember, true) }).toEqual({ steps, failed: expected });
      expect({ steps, failed: await failures(ShardedMember as unknown as typeof InOrderMember, true) }).toEqual({
        steps,
        failed: expected,
      });
    }
    await expectShardsConsistent(ShardedMember, redis.raw, redis.prefix);
  });

  it('removeMany releases the claims of what it removes: the values are free at once', async () => {
    const gone = await ShardedAccount.create({ email: 'removed@x.io', badge: 4242 });
    expect((await ShardedAccount.removeMany([gone.id])).removed).toEqual([gone.id]);
    await ShardedAccount.create({ email: 'REMOVED@x.io', badge: 4242 });
    expect(await redis.raw.get(claimKey(redis.prefix, 'ShardedAccount', undefined, 'badge', '4242'))).not.toBeNull();
  });
});

describe('check and repair of a sharded model', () => {
  @Model({ shards: 3 })
  class CheckedMember extends BaseEntity {
    @Attr() @Unique() handle?: string;
    @Attr() @Index() level?: number;
  }

  it('checks every shard and the claims across them, and repair fixes what a crash can leave', async () => {
    const members = await Promise.all(Array.from({ length: 30 }, (_, i) => CheckedMember.create({ handle: `h${i}`, level: i % 4 })));
    expect(await CheckedMember.check()).toMatchObject({ ok: true, objects: 30, violations: [] });

    const model = descriptorOf(CheckedMember);
    const key = (handle: string) => claimKey(redis.prefix, 'CheckedMember', undefined, 'handle', handle);
    const victim = members[4];
    const victimKeys = model.keysOf(redis.prefix, victim.id);
    // a writer died after its claim (no object), one claim went missing, one index entry was lost in a shard,
    // and one shard's sequence fell behind
    await redis.raw.set(key('ghost'), `777777 ${Date.now() - 60_000}`);
    await redis.raw.del(key('h7'));
    await redis.raw.zRem(victimKeys.sorted('score', 'level'), victim.id);
    await redis.raw.set(victimKeys.sequence, '0');

    const report = await CheckedMember.check();
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => v.kind).sort()).toEqual(['missingEntry', 'sequenceBehind', 'staleClaim', 'unclaimedUnique']);
    const repair = await CheckedMember.repair();
    expect(repair.left).toEqual([]);
    expect(await CheckedMember.check()).toMatchObject({ ok: true, objects: 30 });
    expect(await redis.raw.get(key('ghost'))).toBeNull();
    expect((await redis.raw.get(key('h7')))!.split(' ')[0]).toBe(members[7].id);
    // the raised sequence never hands out an id that exists
    const more = await Promise.all(Array.from({ length: 9 }, (_, i) => CheckedMember.create({ handle: `new${i}`, level: 1 })));
    expect(new Set([...members, ...more].map((m) => m.id)).size).toBe(39);
    await expectShardsConsistent(CheckedMember, redis.raw, redis.prefix);
  });
});

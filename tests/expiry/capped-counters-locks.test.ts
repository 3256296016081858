import {
  Attr,
  BaseEntity,
  Counter,
  DynamicAttrs,
  Index,
  LockTimeoutError,
  Model,
  StaleObjectError,
  ValidationError,
  Version,
} from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model({ cap: { by: 'score', keep: 3 } })
class CapScore extends BaseEntity {
  @Attr() player?: string;
  @Attr() @Index() score?: number;
}

@Model()
class CntPost extends BaseEntity {
  @Attr() title?: string;
  @Counter() @Index() views = 0;
  @Version() version?: number;
  @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
}

const redis = useTestRedis();

describe('capped models', () => {
  it('keep exactly the top N, ties broken by id, and delete the rest whole', async () => {
    for (const [player, score] of [
      ['a', 5],
      ['b', 9],
      ['c', 5],
      ['d', 1],
      ['e', 7],
    ] as const) {
      await CapScore.create({ player, score });
    }
    const top = await CapScore.findBy({}, { orderBy: { score: 'desc' } });
    expect(top.map((p) => [p.player, p.score])).toEqual([
      ['b', 9],
      ['e', 7],
      ['c', 5],
    ]);
    expect(await CapScore.count()).toBe(3);
    const keys = await keysUnder(redis.raw, redis.prefix);
    expect(keys.filter((k) => k.includes('{CapScore}:obj:'))).toHaveLength(3);
    expect(keys.filter((k) => k.includes('{CapScore}:memo:'))).toHaveLength(3);
    await expect(CapScore.create({ player: 'z' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('counters, versions and dynamic attributes', () => {
  it('increments atomically, keeps the index in step, and save() never writes the counter back', async () => {
    const post = await CntPost.create({ title: 'x' });
    const other = await CntPost.findOrFail(post.id);
    await Promise.all(Array.from({ length: 200 }, () => other.increment('views')));
    expect(await post.increment('views', 2.5)).toBe(202.5);
    post.title = 'y';
    await post.save();
    expect((await CntPost.findOrFail(post.id)).views).toBe(202.5);
    expect(await CntPost.findIds({ views: { gt: 200 } })).toEqual([post.id]);
  });

  it('refuses a stale save and writes nothing', async () => {
    const post = await CntPost.create({ title: 'v1' });
    expect(post.version).toBe(1);
    const first = await CntPost.findOrFail(post.id);
    const second = await CntPost.findOrFail(post.id);
    first.title = 'v2';
    await first.save();
    expect(first.version).toBe(2);
    second.title = 'lost';
    await expect(second.save()).rejects.toBeInstanceOf(StaleObjectError);
    expect((await CntPost.findOrFail(post.id)).title).toBe('v2');
  });

  it('checks the version it loaded, not one set by hand, and sends none', async () => {
    const post = await CntPost.create({ title: 'h1' });
    const loaded = await CntPost.findOrFail(post.id);
    loaded.version = 40;
    loaded.title = 'h2';
    await loaded.save();
    expect(loaded.version).toBe(2);
    expect((await CntPost.findOrFail(post.id)).version).toBe(2);
    const behind = await CntPost.findOrFail(post.id);
    await loaded.save(); // nothing changed: nothing is sent
    loaded.title = 'h3';
    await loaded.save();
    behind.version = 3; // the stored version now, but not the one it loaded
    behind.title = 'lost';
    await expect(behind.save()).rejects.toBeInstanceOf(StaleObjectError);
    const stored = await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`);
    expect([stored.title, stored.version]).toEqual(['h3', '3']);
    const fresh = CntPost.build({ title: 'n', version: 9 });
    await fresh.save();
    expect(fresh.version).toBe(1);
  });

  it.each<[string, unknown]>([
    ['a string', 'abc'],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['an object', { n: 1 }],
    ['another number', 999],
  ])(
    'a version or counter assigned %s by hand is neither written nor checked by an update, the other changes are saved',
    async (_label, value) => {
      const post = await CntPost.create({ title: 'r1' });
      await post.increment('views', 5);
      const loaded = await CntPost.findOrFail(post.id);
      (loaded as unknown as Record<string, unknown>).version = value;
      (loaded as unknown as Record<string, unknown>).views = value;
      loaded.title = 'r2';
      await loaded.save();
      expect(loaded.version).toBe(2);
      const stored = await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`);
      expect([stored.title, stored.version, stored.views]).toEqual(['r2', '2', '5']);
      expect(await CntPost.findIds({ views: 5 })).toContain(post.id);
      // alone, they are no change: nothing is written, and the version stays
      (loaded as unknown as Record<string, unknown>).version = value;
      await loaded.save();
      expect((await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`)).version).toBe('2');
      // saveMany's updates likewise
      const again = await CntPost.findOrFail(post.id);
      (again as unknown as Record<string, unknown>).version = value;
      (again as unknown as Record<string, unknown>).views = value;
      again.title = 'r3';
      expect((await CntPost.saveMany([again])).failed).toEqual([]);
      expect(again.version).toBe(3);
      const after = await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`);
      expect([after.title, after.version, after.views]).toEqual(['r3', '3', '5']);
      // and the version checked is still the one loaded: a stale instance is refused whatever was assigned
      loaded.title = 'lost';
      (loaded as unknown as Record<string, unknown>).version = value;
      await expect(loaded.save()).rejects.toBeInstanceOf(StaleObjectError);
    },
  );

  it('a create writes the counter it is given, and refuses one that is not a number; it starts the version at 1', async () => {
    const post = await CntPost.create({ title: 'c', views: 7, version: 'abc' as never });
    const stored = await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`);
    expect([stored.views, stored.version]).toEqual(['7', '1']);
    await expect(CntPost.create({ title: 'c', views: 'abc' as never })).rejects.toBeInstanceOf(ValidationError);
  });

  it('stores dynamic attributes one field each, with their types', async () => {
    const post = await CntPost.create({ title: 'd', extra: { color: 'red', size: 3, ok: true, 'a:b{c}': '' } });
    const loaded = await CntPost.findOrFail(post.id);
    expect(loaded.extra).toEqual({ color: 'red', size: 3, ok: true, 'a:b{c}': '' });
    delete loaded.extra.color;
    loaded.extra.size = -0;
    await loaded.save();
    const hash = await redis.raw.hGetAll(`${redis.prefix}:{CntPost}:obj:${post.id}`);
    expect(hash['~color']).toBeUndefined();
    expect(hash['~size']).toBe('n-0');
    await expect(CntPost.create({ extra: { bad: {} as never } })).rejects.toBeInstanceOf(ValidationError);
    const polluting = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    await expect(CntPost.create({ extra: polluting })).rejects.toBeInstanceOf(ValidationError);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('withLock', () => {
  it('gives mutual exclusion and times out', async () => {
    const post = await CntPost.create({ title: 'lock' });
    let inside = 0;
    let overlap = false;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        CntPost.withLock(post.id, async (p) => {
          inside++;
          if (inside > 1) overlap = true;
          await new Promise((r) => setTimeout(r, 20));
          p.title = `${p.title}!`;
          await p.save();
          inside--;
        }),
      ),
    );
    expect(overlap).toBe(false);
    expect((await CntPost.findOrFail(post.id)).title).toBe('lock!!!!!');
    await expect(
      CntPost.withLock(post.id, () => CntPost.withLock(post.id, async () => 1, { waitMs: 50 }), { waitMs: 50 }),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await redis.raw.exists(`${redis.prefix}:{CntPost}:lock:${post.id}`)).toBe(0);
  });
});

@Model({ cap: { by: 'score', keep: 2 }, expirable: true })
class CapPersisted extends BaseEntity {
  @Attr() @Index() score?: number;
  @Attr() @Index() team?: string;
}

describe('a capped object that had a TTL removed', () => {
  it('is still evicted whole', async () => {
    const first = await CapPersisted.create({ score: 1, team: 'x' });
    await first.expire(60);
    await first.persist();
    await CapPersisted.create({ score: 5 });
    await CapPersisted.create({ score: 6 }); // evicts the first
    expect(await CapPersisted.find(first.id)).toBeNull();
    expect(await redis.raw.exists(`${redis.prefix}:{CapPersisted}:idx:team:x`)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}:{CapPersisted}:memo:${first.id}`)).toBe(0);
  });
});

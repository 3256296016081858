import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { activeConnection } from '../../src/redis/connection';
import { ObjectStore } from '../../src/store/object-store';
import { descriptorOf } from '../../src/model/model-registry';
import { expectIndexesConsistent } from '../support/index-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * A time to live whose moment has passed by the time Redis sets it. A script reads the clock, then sets
 * PEXPIREAT; when Redis is held up between the two for longer than the TTL (a 1 ms expire() on a loaded
 * machine), Redis 7.0 compares the deadline with its clock and deletes the hash at once, inside the
 * script. Whatever the script does after that sees no hash. Both writers of a TTL (expire() and a create of a
 * model with a ttl) write the memo of the object's entries before the TTL, so the object is then an expired one
 * like any other, whole in its memo, and its sweep leaves nothing.
 *
 * The hold-up is made exact here by giving the store a deadline 1 s in the past, which every Redis version
 * treats the same way (7.2 and later compare with the script's start, which is earlier still).
 */

@Model({ ttl: 3600 })
class LateSession extends BaseEntity {
  @Attr() @Index() user?: string;
  @Attr() @Unique() token?: string;
  @Attr() @Index({ sortable: true }) title?: SortableString;
  @Attr() @Index() rank?: number;
}

@Model({ expirable: true })
class LateNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();
const PAST = -1000;

/** The key base of a model of this file under the test's prefix. */
const baseOf = (model: string) => `${redis.prefix}:{${model}}`;

async function keysOf(model: string): Promise<string[]> {
  return (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${baseOf(model)}:`));
}

describe('a time to live that has already passed when Redis sets it', () => {
  it('expire(): the hash goes at once, its memo records every entry, and the sweep removes them all', async () => {
    const notes = await Promise.all(['a', 'b'].map((tag, i) => LateNote.create({ tag, code: `c${i}` })));
    const store = new ObjectStore(descriptorOf(LateNote), activeConnection());
    const base = baseOf('LateNote');
    expect(await store.expire(notes[0].id, PAST)).toBe(true);

    expect(await redis.raw.exists(`${base}:obj:${notes[0].id}`)).toBe(0);
    expect(await redis.raw.hGetAll(`${base}:memo:${notes[0].id}`)).toEqual({
      [`S${base}:idx:tag:a`]: notes[0].id,
      [`U${base}:uniq:code`]: 'c0',
    });
    expect(await LateNote.find(notes[0].id)).toBeNull();
    expect((await expectIndexesConsistent(LateNote, redis.raw, redis.prefix)).objects).toBe(1);

    expect(await LateNote.sweep()).toBe(1);
    expect(await keysOf('LateNote')).toEqual(
      [`${base}:all`, `${base}:idx:tag:b`, `${base}:obj:${notes[1].id}`, `${base}:seq`, `${base}:uniq:code`].sort(),
    );
    expect(await redis.raw.hGetAll(`${base}:uniq:code`)).toEqual({ c1: notes[1].id });
    expect((await expectIndexesConsistent(LateNote, redis.raw, redis.prefix)).objects).toBe(1);
    // its code is free again
    await LateNote.create({ tag: 'c', code: 'c0' });
  });

  it('what an earlier version left in that case (the entries of a swept object) is named by check() and removed by repair()', async () => {
    const note = await LateNote.create({ tag: 'left', code: 'left-code' });
    const base = baseOf('LateNote');
    // as that sweep left it: hash, memo, `all` and `exp` entries gone, the index and unique entries kept
    await redis.raw.del([`${base}:obj:${note.id}`, `${base}:memo:${note.id}`]);
    await redis.raw.zRem(`${base}:all`, note.id);
    const found = await LateNote.check();
    expect(found.violations.map((v) => [v.kind, v.key])).toEqual(
      expect.arrayContaining([
        ['danglingEntry', `${base}:idx:tag:left`],
        ['uniqueOwner', `${base}:uniq:code`],
      ]),
    );
    expect((await LateNote.repair()).left).toEqual([]);
    expect((await LateNote.check()).violations).toEqual([]);
    expect(await redis.raw.exists(`${base}:idx:tag:left`)).toBe(0);
    await LateNote.create({ tag: 'again', code: 'left-code' }); // the code is free again
  });

  describe('a create of a model with a ttl', () => {
    const model = descriptorOf(LateSession) as { ttlMs: number | undefined };
    const ttlMs = model.ttlMs;
    afterEach(() => {
      model.ttlMs = ttlMs;
    });

    it('create(): the new object is swept by its own create, with every entry it was given', async () => {
      const kept = await LateSession.create({ user: 'u1', token: 'kept', title: 'k', rank: 1 });
      model.ttlMs = PAST;
      const late = await LateSession.create({ user: 'u1', token: 'late', title: 't', rank: 2 });
      expect(await LateSession.find(late.id)).toBeNull();
      expect(await LateSession.findBy({ user: 'u1' })).toEqual([expect.objectContaining({ id: kept.id })]);
      expect((await keysOf('LateSession')).filter((key) => key.endsWith(`:${late.id}`))).toEqual([]);
      expect(await redis.raw.hGetAll(`${baseOf('LateSession')}:uniq:token`)).toEqual({ kept: kept.id });
      expect((await expectIndexesConsistent(LateSession, redis.raw, redis.prefix)).objects).toBe(1);
    });

    it('saveMany(): each new object is swept whole, and the call reports the ids it drew', async () => {
      model.ttlMs = PAST;
      const result = await LateSession.saveMany([
        { user: 'u2', token: 'm1', title: 'a', rank: 3 },
        { user: 'u2', token: 'm2', title: 'b', rank: 4 },
      ]);
      expect(result.failed).toEqual([]);
      const ids = result.saved.map((entity) => entity.id);
      expect(ids).toHaveLength(2);
      expect(await LateSession.findMany(ids)).toEqual([null, null]);
      expect(await LateSession.count({ user: 'u2' })).toBe(0);
      const left = (await keysOf('LateSession')).filter((key) => ids.some((id) => key.endsWith(`:${id}`)) || key.includes(':u2'));
      expect(left).toEqual([]);
      expect(await LateSession.sweep()).toBe(0);
      expect(await expectIndexesConsistent(LateSession, redis.raw, redis.prefix)).toMatchObject({ violations: [] });
    });
  });
});

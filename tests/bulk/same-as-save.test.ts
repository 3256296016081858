import { Attr, BaseEntity, Index, Model, Unique } from '../../src';
import { snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany writes what save() writes: the same items created one by one with create() into one model and
 * with one saveMany call into a twin model (same attributes and indexes, another name) leave the very same
 * keys and contents, and the same items fail. The items cover every index kind, scoped indexes with -0 and
 * absent scope values, absent values, NUL bytes, case-insensitive unique values and collisions.
 */

/** The attributes both kinds of twins share: every index kind but unique. */
class TwinFields extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) title?: string;
  @Attr() group?: number;
  @Attr() @Index({ scope: 'group' }) at?: Date;
  @Attr() @Index({ scope: 'topic', sortable: true }) name?: string;
  @Attr() flag?: boolean;
}

function twin(name: string) {
  @Model({ name })
  class Twin extends TwinFields {
    @Attr() @Unique({ caseInsensitive: true }) email?: string;
    @Attr() @Unique() code?: number;
  }
  return Twin;
}

/**
 * Without unique values: create() writes these with create-plain.lua and saveMany with a MULTI per chunk, both
 * with entries computed by the client (no checks before the write).
 */
function plainTwin(name: string) {
  @Model({ name })
  class PlainTwin extends TwinFields {
    @Attr() @Index({ scope: 'group' }) rank?: number;
  }
  return PlainTwin;
}

/** The same with a unique attribute left unset: creates go through save.lua, which computes the entries itself. */
@Model({ name: 'PlainChecked' })
class PlainChecked extends TwinFields {
  @Attr() @Index({ scope: 'group' }) rank?: number;
  @Attr() @Unique() unset?: string;
}

const Single = twin('TwinSingle');
const Batch = twin('TwinBatch');
const PlainSingle = plainTwin('PlainSingle');
const PlainBatch = plainTwin('PlainBatch');
const redis = useTestRedis();

const renamed = (snapshot: Record<string, unknown>, name: string) =>
  Object.fromEntries(Object.entries(snapshot).map(([key, value]) => [key.replace(`{${name}}`, '{Twin}'), value]));

function items() {
  return Array.from({ length: 300 }, (_, i) => ({
    topic: i % 5 === 0 ? undefined : `t${i % 4}`,
    score: i % 7 === 0 ? undefined : i % 11 === 0 ? -0 : ((i * 13) % 97) - 40,
    title: i % 6 === 0 ? undefined : `title ${i % 17}${i % 2 ? '\0x' : ''}`,
    group: i % 3 === 0 ? undefined : i % 8 === 0 ? -0 : i % 3,
    at: new Date(1_600_000_000_000 + ((i * 7919) % 300) * 1000),
    name: `N${i % 23}`,
    email: i % 4 === 0 ? undefined : i % 50 === 1 ? 'Dup@Example.com' : `u${i}@example.com`,
    code: i % 2 === 0 ? undefined : i % 61 === 3 ? 7 : i,
    flag: i % 2 === 0,
  }));
}

describe('saveMany and save() write the same', () => {
  it('same keys, same contents, same failures', async () => {
    const singleFailures: number[] = [];
    for (const [i, attributes] of items().entries()) {
      // saveMany draws the ids of its new objects before the writes (a lost reply leaves each its id): an item
      // refused at its write leaves its id unused, which the twin's create() does by hand
      await Single.create(attributes).catch(() => singleFailures.push(i) && redis.raw.incr(`${redis.prefix}:{TwinSingle}:seq`));
    }
    const result = await Batch.saveMany(items(), { chunkSize: 50 });
    expect(result.failed.map((failure) => failure.index)).toEqual(singleFailures);
    expect(singleFailures.length).toBeGreaterThan(0);

    const rename = (snapshot: Record<string, unknown>, name: string) =>
      Object.fromEntries(Object.entries(snapshot).map(([key, value]) => [key.replace(`{${name}}`, '{Twin}'), value]));
    const single = rename(await snapshotKeys(redis.raw, `${redis.prefix}:{TwinSingle}`), 'TwinSingle');
    const batch = rename(await snapshotKeys(redis.raw, `${redis.prefix}:{TwinBatch}`), 'TwinBatch');
    expect(Object.keys(batch)).toEqual(Object.keys(single));
    expect(batch).toEqual(single);
  });
});

describe('saveMany of a model without unique values, foreign keys, ttl or cap', () => {
  it('writes the same keys and contents as save() and as save.lua, in every chunk size, with the same ids', async () => {
    const plainItems = () =>
      items().map(({ email, code, ...rest }) => ({ ...rest, rank: code === undefined ? undefined : email ? code : -0 }));
    for (const attributes of plainItems()) await PlainSingle.create(attributes);
    for (const attributes of plainItems()) await PlainChecked.create(attributes);
    const first = await PlainBatch.saveMany(plainItems().slice(0, 7), { chunkSize: 3 });
    const rest = await PlainBatch.saveMany(plainItems().slice(7), { chunkSize: 50 });
    expect([...first.failed, ...rest.failed]).toEqual([]);
    expect([...first.saved, ...rest.saved].map((post) => post.id)).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));

    const single = renamed(await snapshotKeys(redis.raw, `${redis.prefix}:{PlainSingle}`), 'PlainSingle');
    const batch = renamed(await snapshotKeys(redis.raw, `${redis.prefix}:{PlainBatch}`), 'PlainBatch');
    const checked = renamed(await snapshotKeys(redis.raw, `${redis.prefix}:{PlainChecked}`), 'PlainChecked');
    expect(Object.keys(batch)).toEqual(Object.keys(single));
    expect(batch).toEqual(single);
    expect(Object.keys(single)).toEqual(Object.keys(checked));
    expect(single).toEqual(checked);
    expect((await PlainBatch.check()).violations).toEqual([]);
    expect((await PlainSingle.check()).violations).toEqual([]);
  });
});

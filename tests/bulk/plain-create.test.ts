import { IsInt, Min } from 'class-validator';
import { Attr, BaseEntity, Counter, DynamicAttrs, Index, Model, ValidationError } from '../../src';
import { RAMP_CHUNK_SIZE, RAMP_CHUNKS } from '../../src/entity/bulk/bulk-options';
import { useCountingConnection } from '../core/support/counting-client';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * saveMany of new objects that need no check before the write (sequence ids, no unique value, foreign key, ttl
 * or cap): one INCRBY draws the ids of the whole call, in the given order, then one MULTI per chunk writes the
 * hashes with their `all` and index entries (every index kind, scoped ones, absent values).
 */

@Model()
class PlainEvent extends BaseEntity {
  @Attr() @Index() kind!: string;
  @Attr() @Index() at!: Date;
  @Attr() @IsInt() @Min(0) @Index() weight!: number;
  @Attr() payload?: string;
  @Attr() @Index({ sortable: true }) label?: string;
  @Attr() bucket?: number;
  @Attr() @Index({ scope: 'bucket' }) rank?: number;
  @Attr() @Index({ scope: 'kind', sortable: true }) tag?: string;
}

@Model()
class PlainNote extends BaseEntity {
  @Attr() @Index() title!: string;
  @Attr() body?: string;
  @Counter() @Index() views = 0;
  @DynamicAttrs() extra: Record<string, string | number | boolean> = {};
}

@Model()
class PlainCard extends BaseEntity {
  @Attr() @Index() kind!: string;
  @Attr() @Index() at!: Date;
  @Attr() note?: string;
  @Attr() flag?: boolean;
  @Counter() hits = 0;
}

@Model()
class PlainTitle extends BaseEntity {
  @Attr() @Index() title!: string;
  @Attr() @Index() views?: number;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);

beforeEach(() => counting.reset());

const item = (i: number) => ({
  kind: `k${i % 7}`,
  at: new Date(1_700_000_000_000 + i * 1000),
  weight: (i * 37) % 101,
  payload: 'x'.repeat(i % 50),
  // absent values, a NUL byte in a sortable string: edge cases of every index kind
  label: i % 3 === 0 ? undefined : `label ${i % 500}\0${i % 7}`,
  bucket: i % 4 === 0 ? undefined : i % 9,
  rank: i % 6 === 0 ? undefined : i % 1000,
  tag: i % 10 === 0 ? undefined : `tag${i % 13}`,
});

describe('saveMany of objects that need no check', () => {
  it('draws every id with one draw-ids.lua call, in the given order, and writes each chunk with one MULTI', async () => {
    const before = Number((await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`)) ?? 0);
    const items = Array.from({ length: 5000 }, (_, i) => item(i));
    const result = await PlainEvent.saveMany(items, { chunkSize: 700 });
    expect(result.ok).toBe(true);
    expect(result.saved.map((event) => Number(event.id))).toEqual(items.map((_, i) => before + 1 + i));
    expect(counting.calls.filter((call) => call === 'incrBy')).toHaveLength(0);
    // the first chunks are small ones, sent one at a time (create-window.test.ts), then chunks of 700
    const ramp = RAMP_CHUNKS * RAMP_CHUNK_SIZE;
    const chunks = RAMP_CHUNKS + Math.ceil((5000 - ramp) / 700);
    expect(counting.calls.filter((call) => call === 'multi')).toHaveLength(chunks);
    // the draw, then the check of the first chunk's keys' types (expect-types.lua) before its MULTI: items 0
    // to 39 write every key the call writes (each kind, bucket and tag), so no later chunk sends a check
    expect(counting.calls.filter((call) => call === 'fCall')).toHaveLength(2);
    expect(await PlainEvent.count()).toBe(5000);
    const stored = await PlainEvent.find(result.saved[4321].id);
    expect(stored?.label).toBe(items[4321].label);
    expect(stored?.at).toEqual(items[4321].at);
    expect(await redis.raw.hGet(`${redis.prefix}:{PlainEvent}:obj:${result.saved[0].id}`, '#id')).toBe(result.saved[0].id);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
    // the instances are saved: a change is an update of the stored object, and a saveMany of updates alone
    // draws no id
    result.saved[7].weight = 100;
    result.saved[8].weight = 100;
    counting.reset();
    expect((await PlainEvent.saveMany([result.saved[7], result.saved[8]])).ok).toBe(true);
    expect(counting.calls).not.toContain('incrBy');
    expect(await PlainEvent.count({ weight: 100 })).toBe(2 + items.filter((event, i) => event.weight === 100 && i !== 7 && i !== 8).length);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
  });

  it('checks the type of each key once per call, by the first chunk that writes it', async () => {
    // a new title every 20 items: every other chunk of 10 writes an index key no chunk before it wrote
    const notes = Array.from({ length: 100 }, (_, i) => ({ title: `once ${Math.floor(i / 20)}`, views: i }));
    const result = await PlainTitle.saveMany(notes, { chunkSize: 10 });
    expect(result.ok).toBe(true);
    expect(counting.calls.filter((call) => call === 'multi')).toHaveLength(10);
    // the draw, then a check for chunks 1, 3, 5, 7 and 9 only
    expect(counting.calls.filter((call) => call === 'fCall')).toHaveLength(1 + 5);
    for (let t = 0; t < 5; t++) expect(await PlainTitle.count({ title: `once ${t}` })).toBe(20);
    await expectIndexesConsistent(PlainTitle, redis.raw, redis.prefix);
  });

  it('sends chunks of 250 objects when no chunkSize is given', async () => {
    const result = await PlainEvent.saveMany(Array.from({ length: 1001 }, (_, i) => item(i)));
    expect(result.ok).toBe(true);
    expect(result.saved).toHaveLength(1001);
    // the small chunks first, then chunks of 250 (and the rest)
    expect(counting.calls.filter((call) => call === 'multi')).toHaveLength(
      RAMP_CHUNKS + Math.ceil((1001 - RAMP_CHUNKS * RAMP_CHUNK_SIZE) / 250),
    );
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
  });

  it('leaves instances that save, count and remove as after save(), with dynamic attributes and counters', async () => {
    const notes = Array.from({ length: 30 }, (_, i) =>
      PlainNote.build({
        title: `t${i % 3}`,
        ...(i % 2 === 0 && { body: `body ${i}` }),
        views: i,
        extra: i % 5 === 0 ? {} : { colour: `c${i}`, size: i, seen: i % 2 === 0 },
      }),
    );
    const result = await PlainNote.saveMany(notes, { chunkSize: 7 });
    expect(result.ok).toBe(true);
    // the draw, then the check of the first chunk's keys' types before its MULTI (t0 to t2 and views are all
    // in it): no save script
    expect(counting.calls.filter((call) => call === 'fCall')).toHaveLength(2);
    expect(notes.every((note) => note.isPersisted())).toBe(true);
    // nothing changed: save() writes nothing
    counting.reset();
    await notes[3].save();
    expect(counting.calls).toEqual([]);
    // a changed indexed attribute, a removed optional one and a dynamic attribute: only those are written
    notes[3].title = 'moved';
    notes[4].body = undefined;
    notes[6].extra = { colour: 'blue' };
    for (const note of [notes[3], notes[4], notes[6]]) await note.save();
    const key = (note: PlainNote) => `${redis.prefix}:{PlainNote}:obj:${note.id}`;
    expect(await redis.raw.hGet(key(notes[3]), 'title')).toBe('moved');
    expect(await redis.raw.hExists(key(notes[4]), 'body')).toBe(0);
    expect(await redis.raw.hGetAll(key(notes[6]))).toEqual({
      '#id': notes[6].id,
      title: 't0',
      body: 'body 6',
      views: '6',
      '~colour': 'sblue',
    });
    expect(await PlainNote.findIds({ title: 'moved' })).toEqual([notes[3].id]);
    // a counter moves from the stored value; remove() takes every index entry with it
    expect(await notes[9].increment('views', 5)).toBe(14);
    await notes[9].save();
    expect(await redis.raw.hGet(key(notes[9]), 'views')).toBe('14');
    await notes[10].remove();
    expect(notes[10].isPersisted()).toBe(false);
    expect(await PlainNote.count()).toBe(29);
    await expectIndexesConsistent(PlainNote, redis.raw, redis.prefix);
    const reloaded = await PlainNote.findOrFail(notes[6].id!);
    expect(reloaded.extra).toEqual({ colour: 'blue' });
  });

  it('keeps the snapshots of a few instances in one array: save() after it writes exactly what changed', async () => {
    // one chunk, snapshots in groups of 16 ids; two items refused by the Date codec inside groups (their ids
    // unused, their slots empty)
    const refused = new Set([9, 17]);
    const cards = Array.from({ length: 40 }, (_, i) =>
      PlainCard.build({
        kind: `k${i % 4}`,
        at: refused.has(i) ? new Date(Number.NaN) : new Date(1_700_000_000_000 + i * 60_000),
        ...(i % 3 !== 0 && { note: `note ${i}` }),
        ...(i % 2 === 0 && { flag: i % 4 === 0 }),
        hits: i,
      }),
    );
    const result = await PlainCard.saveMany(cards);
    expect(result.failed.map((failure) => failure.index)).toEqual([9, 17]);
    const saved = cards.filter((_, i) => !refused.has(i));
    // every snapshot is what was written: saving any of them again writes nothing
    counting.reset();
    for (const card of saved) await card.save();
    expect(counting.calls).toEqual([]);
    // changes beside the refused items and in each group: only what changed is written, entries move
    const key = (card: PlainCard) => `${redis.prefix}:{PlainCard}:obj:${card.id}`;
    cards[8].kind = 'moved';
    cards[10].note = undefined;
    cards[10].flag = true;
    cards[16].at = new Date(1_800_000_000_000);
    cards[39].kind = 'moved';
    for (const card of [cards[8], cards[10], cards[16], cards[39]]) await card.save();
    expect(await redis.raw.hGetAll(key(cards[10]))).toEqual({
      '#id': cards[10].id,
      kind: 'k2',
      at: String(1_700_000_000_000 + 10 * 60_000),
      flag: 'true',
      hits: '10',
    });
    expect(await PlainCard.findIds({ kind: 'moved' })).toEqual([cards[8].id, cards[39].id]);
    expect(await PlainCard.findIds({ at: { gte: new Date(1_800_000_000_000) } })).toEqual([cards[16].id]);
    // the counter moves from the stored value, and a remove takes the entries with it
    expect(await cards[20].increment('hits', 2)).toBe(22);
    await cards[21].remove();
    expect(await PlainCard.count()).toBe(37);
    await expectIndexesConsistent(PlainCard, redis.raw, redis.prefix);
  });

  it('writes nothing of an item that fails validation or encoding; one its codec refuses leaves its id unused', async () => {
    const before = Number(await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`));
    const count = await PlainEvent.count();
    const invalid = { ...item(1), weight: -1 }; // refused by class-validator, before any id is drawn
    const unencodable = { ...item(2), at: new Date(Number.NaN) }; // refused by the Date codec, after the draw
    const result = await PlainEvent.saveMany([item(0), invalid, unencodable, item(3)]);
    expect(result.failed.map((failure) => [failure.index, failure.error instanceof ValidationError, failure.written])).toEqual([
      [1, true, false],
      [2, true, false],
    ]);
    // the three items that reached the write drew three ids; the refused one's is skipped
    expect(result.saved.map((event) => Number(event.id))).toEqual([before + 1, before + 3]);
    expect(Number(await redis.raw.get(`${redis.prefix}:{PlainEvent}:seq`))).toBe(before + 3);
    expect(await redis.raw.exists(`${redis.prefix}:{PlainEvent}:obj:${before + 2}`)).toBe(0);
    expect(await PlainEvent.count()).toBe(count + 2);
    await expectIndexesConsistent(PlainEvent, redis.raw, redis.prefix);
  });
});

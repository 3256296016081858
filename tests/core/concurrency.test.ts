import { Attr, BaseEntity, Model, Persisted } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Creates run as one script each, so any number of them at once hand out distinct ids; removing every
 * object leaves nothing behind but the sequence.
 */

@Model()
class ConcurrentEvent extends BaseEntity {
  @Attr() seq!: number;
  @Attr() label?: string;
}

const redis = useTestRedis();
const TOTAL = 200;
let events: Array<Persisted<ConcurrentEvent>> = [];

describe(`${TOTAL} concurrent creates`, () => {
  beforeAll(async () => {
    events = await Promise.all(Array.from({ length: TOTAL }, (_, seq) => ConcurrentEvent.create({ seq, label: `event ${seq}` })));
  });

  it('give distinct ids, exactly 1..200', () => {
    const ids = events.map((event) => Number(event.id)).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(TOTAL);
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  });

  it('are all counted', async () => {
    expect(await ConcurrentEvent.count()).toBe(TOTAL);
  });

  it('each stored the attributes of its own create', async () => {
    const loaded = await ConcurrentEvent.findMany(events.map((event) => event.id));
    loaded.forEach((event, i) => {
      expect(event!.seq).toBe(events[i].seq);
      expect(event!.label).toBe(`event ${events[i].seq}`);
    });
  });

  it('concurrent updates of different objects all land', async () => {
    await Promise.all(
      events.map((event) => {
        event.label = `updated ${event.seq}`;
        return event.save();
      }),
    );
    const loaded = await ConcurrentEvent.findMany(events.map((event) => event.id));
    expect(loaded.every((event) => event!.label === `updated ${event!.seq}`)).toBe(true);
  });

  it('after removing every object, only the sequence key is left', async () => {
    await Promise.all(events.map((event) => event.remove()));
    expect(await ConcurrentEvent.count()).toBe(0);
    expect(await keysUnder(redis.raw, redis.prefix)).toEqual([`${redis.prefix}:{ConcurrentEvent}:seq`]);
    expect(await redis.raw.get(`${redis.prefix}:{ConcurrentEvent}:seq`)).toBe(String(TOTAL));
  });

  it('the sequence continues after everything was removed: ids are never reused', async () => {
    const next = await ConcurrentEvent.create({ seq: -1 });
    expect(next.id).toBe(String(TOTAL + 1));
  });
});

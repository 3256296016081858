import { ArgumentError, Attr, BaseEntity, Index, Model, NotFoundError, Unique } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * create(attributes, { idempotencyKey }): the key's memo is written in the script that creates the object, so a
 * retry under the key, however often, stores nothing more and resolves with the first call's object.
 */

@Model()
class IcPayment extends BaseEntity {
  @Attr() @Index() account!: string;
  @Attr() amount!: number;
}

@Model({ idempotencyTtl: 60, idStrategy: 'uuid' })
class IcTicket extends BaseEntity {
  @Attr() @Unique() code!: string;
}

@Model({ shards: 4 })
class IcEvent extends BaseEntity {
  @Attr() @Index() kind!: string;
}

const redis = useTestRedis();

describe('create with an idempotency key', () => {
  it('stores the object once, and a retry resolves with it', async () => {
    const first = await IcPayment.create({ account: 'a', amount: 5 }, { idempotencyKey: 'pay-1' });
    const again = await IcPayment.create({ account: 'a', amount: 5 }, { idempotencyKey: 'pay-1' });
    const changed = await IcPayment.create({ account: 'a', amount: 999 }, { idempotencyKey: 'pay-1' });
    expect([again.id, changed.id, changed.amount, again.isPersisted()]).toEqual([first.id, first.id, 5, true]);
    await IcPayment.create({ account: 'a', amount: 5 }, { idempotencyKey: 'pay-2' });
    expect(await IcPayment.count({ account: 'a' })).toBe(2);
    const ttl = await redis.raw.pTTL(`${redis.prefix}:{IcPayment}:idem:pay-1`);
    expect(ttl).toBeGreaterThan(86_000_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
    expect(await IcPayment.check()).toMatchObject({ ok: true });
  });

  it("takes the model's idempotencyTtl and the call's, and keeps each retry to one object under concurrency", async () => {
    const tickets = await Promise.all(Array.from({ length: 8 }, () => IcTicket.create({ code: 'T-1' }, { idempotencyKey: 'ticket-1' })));
    expect(new Set(tickets.map((ticket) => ticket.id)).size).toBe(1);
    expect(await IcTicket.count()).toBe(1);
    expect(await redis.raw.pTTL(`${redis.prefix}:{IcTicket}:idem:ticket-1`)).toBeLessThanOrEqual(60_000);
    await IcTicket.create({ code: 'T-2' }, { idempotencyKey: 'ticket-2', idempotencyTtl: 5 });
    expect(await redis.raw.pTTL(`${redis.prefix}:{IcTicket}:idem:ticket-2`)).toBeLessThanOrEqual(5_000);
  });

  it('finds the memo of a sharded model in the shard the key picks', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) ids.add((await IcEvent.create({ kind: 'k' }, { idempotencyKey: 'event-1' })).id);
    expect([ids.size, await IcEvent.count()]).toEqual([1, 1]);
  });

  it('refuses a bad key or time to live, and says when the stored object is gone', async () => {
    await expect(IcPayment.create({ account: 'b', amount: 1 }, { idempotencyKey: '' })).rejects.toThrow(ArgumentError);
    await expect(IcPayment.create({ account: 'b', amount: 1 }, { idempotencyKey: 'k', idempotencyTtl: -1 })).rejects.toThrow(ArgumentError);
    const stored = await IcPayment.create({ account: 'b', amount: 1 }, { idempotencyKey: 'gone-1' });
    await stored.remove();
    await expect(IcPayment.create({ account: 'b', amount: 1 }, { idempotencyKey: 'gone-1' })).rejects.toThrow(NotFoundError);
    expect(await IcPayment.count({ account: 'b' })).toBe(0);
  });
});

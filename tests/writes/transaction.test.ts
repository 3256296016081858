import {
  AfterSave,
  ArgumentError,
  Attr,
  BaseEntity,
  BeforeSave,
  BelongsTo,
  HasMany,
  Index,
  Model,
  NotFoundError,
  RelationError,
  StaleObjectError,
  transaction,
  TransactionRefusedError,
  Unique,
  UniqueConstraintError,
  ValidationError,
  Version,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * transaction(): saves (creates and updates) and removes written all or nothing in one script. Every check runs
 * before the first write, against Redis with the steps before laid over (a value freed by an earlier step may
 * be taken by a later one); a refusal names the object and leaves every key as it was.
 */

const log: string[] = [];

@Model()
class TxAccount extends BaseEntity {
  @Attr() @Unique() email!: string;
  @Attr() @Index() plan!: string;
  @Attr() balance!: number;
  @BeforeSave checkBalance() {
    log.push(`before ${this.email}`);
    if (this.balance < 0) throw new Error(`${this.email}: a balance cannot be negative`);
  }
  @AfterSave saved() {
    log.push(`after ${this.email}`);
  }
}

@Model()
class TxDoc extends BaseEntity {
  @Attr() title!: string;
  @Version() version?: number;
}

@Model({ group: 'txshop', idStrategy: 'given' })
class TxOrder extends BaseEntity {
  @Attr() total!: number;
  @HasMany(() => TxLine, { inverse: 'order' }) lines!: HasMany<TxLine>; // onDelete 'restrict'
}

@Model({ group: 'txshop' })
class TxLine extends BaseEntity {
  @BelongsTo(() => TxOrder) order!: BelongsTo<TxOrder>;
  orderId?: string;
  @Attr() sku!: string;
}

@Model()
@Unique(['userId', 'channelId'])
class TxSubscription extends BaseEntity {
  @Attr() userId!: string;
  @Attr() channelId!: string;
}

@Model({ cap: { by: 'at', keep: 3 } })
class TxCapped extends BaseEntity {
  @Attr() @Index() at!: number;
}

const redis = useTestRedis();

async function refusal(work: Promise<unknown>): Promise<TransactionRefusedError> {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TransactionRefusedError);
  return error as TransactionRefusedError;
}

beforeEach(() => {
  log.length = 0;
});

describe('transaction', () => {
  it('writes creates, updates and removes together, and runs the after-hooks once all are stored', async () => {
    const a = await TxAccount.create({ email: 'a@x.io', plan: 'free', balance: 10 });
    const b = TxAccount.build({ email: 'b@x.io', plan: 'free', balance: 0 });
    const c = await TxAccount.create({ email: 'c@x.io', plan: 'pro', balance: 5 });
    log.length = 0;
    a.balance -= 7;
    a.plan = 'pro';
    b.balance += 7;
    const returned = await transaction(async (tx) => {
      tx.save(a);
      tx.save(b);
      await Promise.resolve();
      tx.remove(c);
      return 'moved';
    });
    expect(returned).toBe('moved');
    expect(log).toEqual(['before a@x.io', 'before b@x.io', 'after a@x.io', 'after b@x.io']);
    expect([b.isPersisted(), c.isPersisted(), c.isRemoved(), c.id]).toEqual([true, false, true, expect.any(String)]);
    expect((await TxAccount.findOrFail(a.id)).balance).toBe(3);
    expect((await TxAccount.findOrFail(b.id!)).balance).toBe(7);
    expect(await TxAccount.exists(c.id)).toBe(false);
    expect((await TxAccount.findBy({ plan: 'pro' })).map((found) => found.email)).toEqual(['a@x.io']);
    await expectIndexesConsistent(TxAccount, redis.raw, redis.prefix);
  });

  it('writes nothing when a later step is refused, and names that object', async () => {
    const held = await TxAccount.create({ email: 'held@x.io', plan: 'free', balance: 1 });
    const first = await TxAccount.create({ email: 'first@x.io', plan: 'free', balance: 1 });
    first.plan = 'pro';
    const before = await snapshotKeys(redis.raw, redis.prefix);
    const taken = TxAccount.build({ email: 'held@x.io', plan: 'free', balance: 0 });
    const error = await refusal(
      transaction((tx) => {
        tx.save(first);
        tx.save(TxAccount.build({ email: 'new@x.io', plan: 'free', balance: 0 }));
        tx.save(taken);
      }),
    );
    expect([error.index, error.entity, error.model, error.id, error.operation]).toEqual([2, taken, 'TxAccount', undefined, 'save']);
    expect(error.cause).toBeInstanceOf(UniqueConstraintError);
    expect(error.message).toMatch(/save #2 \(a new TxAccount\).*held@x.io/);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
    expect([first.isPersisted(), taken.isPersisted(), held.isPersisted()]).toEqual([true, false, true]);
  });

  it('sees the steps before: a value taken twice is refused, a value freed earlier may be taken', async () => {
    const twice = await refusal(
      transaction((tx) => {
        tx.save(TxAccount.build({ email: 'twice@x.io', plan: 'free', balance: 0 }));
        tx.save(TxAccount.build({ email: 'twice@x.io', plan: 'free', balance: 0 }));
      }),
    );
    expect(twice.index).toBe(1);
    expect(await TxAccount.count({ email: 'twice@x.io' })).toBe(0);

    const old = await TxAccount.create({ email: 'moving@x.io', plan: 'free', balance: 1 });
    const renamed = await TxAccount.create({ email: 'keep@x.io', plan: 'free', balance: 1 });
    renamed.email = 'kept@x.io';
    const successor = TxAccount.build({ email: 'moving@x.io', plan: 'pro', balance: 1 });
    const heir = TxAccount.build({ email: 'keep@x.io', plan: 'pro', balance: 1 });
    await transaction((tx) => {
      tx.remove(old);
      tx.save(successor);
      tx.save(renamed);
      tx.save(heir);
    });
    expect((await TxAccount.findOneBy({ email: 'moving@x.io' }))?.id).toBe(successor.id);
    expect((await TxAccount.findOneBy({ email: 'keep@x.io' }))?.id).toBe(heir.id);
    expect((await TxAccount.findOneBy({ email: 'kept@x.io' }))?.id).toBe(renamed.id);
    await expectIndexesConsistent(TxAccount, redis.raw, redis.prefix);
  });

  it('checks composite uniques against the steps before, an update by the parts it keeps too', async () => {
    const old = await TxSubscription.create({ userId: 'u1', channelId: 'c1' });
    const other = await TxSubscription.create({ userId: 'u1', channelId: 'c2' });
    const again = TxSubscription.build({ userId: 'u1', channelId: 'c1' });
    await transaction((tx) => [tx.remove(old), tx.save(again)]);
    other.channelId = 'c1';
    const moved = await refusal(transaction((tx) => tx.save(other)));
    expect([moved.id, moved.cause instanceof UniqueConstraintError]).toEqual([other.id, true]);
    const twice = await refusal(
      transaction((tx) => [
        tx.save(TxSubscription.build({ userId: 'u2', channelId: 'c1' })),
        tx.save(TxSubscription.build({ userId: 'u2', channelId: 'c1' })),
      ]),
    );
    expect(twice.index).toBe(1);
    expect((await TxSubscription.findBy({})).map((found) => [found.userId, found.channelId]).sort()).toEqual([
      ['u1', 'c1'],
      ['u1', 'c2'],
    ]);
    expect(await TxSubscription.check()).toMatchObject({ ok: true });
  });

  it('refuses before any write: a before-hook, validation, a stale version, an object gone', async () => {
    const fine = TxAccount.build({ email: 'fine@x.io', plan: 'free', balance: 1 });
    const negative = TxAccount.build({ email: 'neg@x.io', plan: 'free', balance: -1 });
    const hook = await refusal(transaction((tx) => [tx.save(fine), tx.save(negative)]));
    expect([hook.index, (hook.cause as Error).message]).toEqual([1, 'neg@x.io: a balance cannot be negative']);
    expect(log).toEqual(['before fine@x.io', 'before neg@x.io']);

    const invalid = await refusal(
      transaction((tx) => tx.save(TxAccount.build({ email: 'x@x.io', plan: 'free', balance: 'many' as never }))),
    );
    expect(invalid.cause).toBeInstanceOf(ValidationError);

    const doc = await TxDoc.create({ title: 'one' });
    const copy = await TxDoc.findOrFail(doc.id);
    copy.title = 'changed elsewhere';
    await copy.save();
    doc.title = 'mine';
    const other = TxDoc.build({ title: 'other' });
    const stale = await refusal(transaction((tx) => [tx.save(other), tx.save(doc)]));
    expect([stale.index, stale.id, stale.cause instanceof StaleObjectError]).toEqual([1, doc.id, true]);

    const gone = await TxDoc.findOrFail(copy.id);
    await copy.remove();
    gone.title = 'too late';
    const missing = await refusal(transaction((tx) => tx.save(gone)));
    expect(missing.cause).toBeInstanceOf(NotFoundError);
    expect([fine.isPersisted(), other.isPersisted(), await TxDoc.count(), await TxAccount.count({ email: 'fine@x.io' })]).toEqual([
      false,
      false,
      0,
      0,
    ]);
  });

  it('checks relations against the steps before: a parent created, children removed first', async () => {
    const order = TxOrder.build({ id: 'o-1', total: 3 });
    const line = TxLine.build({ sku: 'apple' });
    line.order.set('o-1');
    await transaction((tx) => {
      tx.save(order);
      tx.save(line);
    });
    expect((await order.lines.findBy()).map((found) => found.sku)).toEqual(['apple']);

    const restricted = await refusal(transaction((tx) => tx.remove(order)));
    expect(restricted.cause).toBeInstanceOf(RelationError);
    const orphan = TxLine.build({ sku: 'pear' });
    orphan.order.set('o-missing');
    const noParent = await refusal(transaction((tx) => tx.save(orphan)));
    expect(noParent.cause).toBeInstanceOf(RelationError);

    await transaction((tx) => {
      tx.remove(line);
      tx.remove(order);
    });
    expect([await TxOrder.count(), await TxLine.count()]).toEqual([0, 0]);
    await expectRelationsConsistent([TxOrder, TxLine], redis.raw, redis.prefix);
  });

  it('refuses misuse with ArgumentError before anything runs', async () => {
    const account = TxAccount.build({ email: 'twice-listed@x.io', plan: 'free', balance: 0 });
    await expect(transaction((tx) => [tx.save(account), tx.save(account)])).rejects.toThrow(ArgumentError);
    await expect(transaction((tx) => tx.save(TxCapped.build({ at: 1 })))).rejects.toThrow(/capped/);
    await expect(transaction((tx) => tx.save({ email: 'plain' } as never))).rejects.toThrow(ArgumentError);
    await expect(transaction('not a function' as never)).rejects.toThrow(ArgumentError);
    let kept: Parameters<Parameters<typeof transaction>[0]>[0] | undefined;
    await transaction((tx) => {
      kept = tx;
    });
    expect(() => kept!.save(account)).toThrow(/after the transaction's callback returned/);
    expect(log).toEqual([]);
    expect(await TxAccount.count({ email: 'twice-listed@x.io' })).toBe(0);
  });
});

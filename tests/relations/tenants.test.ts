import {
  Attr,
  BaseEntity,
  BelongsTo,
  HasMany,
  Index,
  ManyToMany,
  Model,
  RedisRecordError,
  RelationError,
  Unique,
  UniqueConstraintError,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Tenant scopes: `Model.scope(tenant)` is the model with every key under `{<tenant>/...}`. Two tenants with the
 * same ids and the same unique values never see each other; relations stay inside the tenant; drop() removes
 * exactly one model's keys in one tenant.
 */

@Model({ group: 'crm' })
class TnAccount extends BaseEntity {
  @Attr() @Unique() email!: string;
  @Attr() @Index() plan!: string;
  @HasMany(() => TnInvoice, { inverse: 'account', onDelete: 'cascade' }) invoices!: HasMany<TnInvoice>;
  @ManyToMany(() => TnLabel, { inverse: 'accounts' }) labels!: ManyToMany<TnLabel>;
}

@Model({ group: 'crm' })
class TnInvoice extends BaseEntity {
  @BelongsTo(() => TnAccount) account!: BelongsTo<TnAccount>;
  @Attr() @Index() amount!: number;
}

@Model({ group: 'crm' })
class TnLabel extends BaseEntity {
  @Attr() @Unique() name!: string;
  @ManyToMany(() => TnAccount, { inverse: 'labels' }) accounts!: ManyToMany<TnAccount>;
}

@Model()
class TnSetting extends BaseEntity {
  @Attr() @Unique() key!: string;
}

const redis = useTestRedis();

/** Fills a tenant (or the unscoped models, tenant undefined) with the same ids and values every time. */
async function fill(tenant: string | undefined) {
  const Account = tenant ? TnAccount.scope(tenant) : TnAccount;
  const Label = tenant ? TnLabel.scope(tenant) : TnLabel;
  const Setting = tenant ? TnSetting.scope(tenant) : TnSetting;
  const first = await Account.create({ email: 'a@x.io', plan: 'pro' });
  const second = await Account.create({ email: 'b@x.io', plan: 'free' });
  await first.invoices.create({ amount: 10 });
  await first.invoices.create({ amount: 20 });
  await second.invoices.create({ amount: 30 });
  const vip = await Label.create({ name: 'vip' });
  await first.labels.add(vip);
  await Setting.create({ key: 'theme' });
  return { first, second, vip };
}

const scopedModels = (tenant: string) => [TnAccount, TnInvoice, TnLabel, TnSetting].map((m) => (m as typeof TnAccount).scope(tenant));

async function expectTenantConsistent(tenant: string): Promise<void> {
  for (const model of scopedModels(tenant)) await expectIndexesConsistent(model, redis.raw, redis.prefix);
  await expectRelationsConsistent(scopedModels(tenant), redis.raw, redis.prefix);
}

describe('tenant scopes', () => {
  it('identical ids and unique values in two tenants do not interfere', async () => {
    const red = await fill('red');
    const blue = await fill('blue');
    const RedAccount = TnAccount.scope('red');
    const BlueAccount = TnAccount.scope('blue');
    expect([red.first.id, blue.first.id]).toEqual(['1', '1']);
    expect(red.first).toBeInstanceOf(TnAccount);
    expect(red.first).toBeInstanceOf(RedAccount);
    expect(red.first).not.toBeInstanceOf(BlueAccount);
    expect(TnAccount.scope('red')).toBe(RedAccount); // one class per model and tenant

    // Changes in one tenant are invisible in the other.
    red.first.plan = 'gold';
    await red.first.save();
    expect((await BlueAccount.findOrFail('1')).plan).toBe('pro');
    expect(await RedAccount.findIds({ plan: 'gold' })).toEqual(['1']);
    expect(await BlueAccount.findIds({ plan: 'gold' })).toEqual([]);
    expect(await RedAccount.count()).toBe(2);
    expect(await TnAccount.count()).toBe(0); // the unscoped model is one more namespace
    await BlueAccount.create({ email: 'c@x.io', plan: 'free' });
    expect(await BlueAccount.count({ plan: 'free' })).toBe(2);
    expect(await RedAccount.count({ plan: 'free' })).toBe(1);

    // Unique values: taken within a tenant, free in another.
    await expect(RedAccount.create({ email: 'a@x.io', plan: 'x' })).rejects.toThrow(UniqueConstraintError);
    await expect(BlueAccount.create({ email: 'c@x.io', plan: 'x' })).rejects.toThrow(UniqueConstraintError);
    const c = await RedAccount.create({ email: 'c@x.io', plan: 'x' });
    expect(c.id).toBe('3');

    // Keys: the tenant is inside the hash tag, before the group.
    expect(await redis.raw.exists(`${redis.prefix}:{red/crm}:TnAccount:obj:1`)).toBe(1);
    expect(await redis.raw.exists(`${redis.prefix}:{blue/TnSetting}:obj:1`)).toBe(1);
    await expectTenantConsistent('red');
    await expectTenantConsistent('blue');
  });

  it('relations stay within the tenant', async () => {
    const RedAccount = TnAccount.scope('red');
    const RedInvoice = TnInvoice.scope('red');
    const GreenAccount = TnAccount.scope('green');
    const GreenInvoice = TnInvoice.scope('green');
    const GreenLabel = TnLabel.scope('green');

    const account = await RedAccount.findOrFail('1');
    const invoices = await account.invoices.findBy({}, { include: ['account'] });
    expect(invoices.every((i) => i instanceof RedInvoice)).toBe(true);
    expect(invoices.map((i) => [i.amount, i.account.value?.email])).toEqual([
      [10, 'a@x.io'],
      [20, 'a@x.io'],
    ]);
    expect((await (await RedInvoice.findOrFail('3')).account.load())?.email).toBe('b@x.io');
    expect(await account.labels.ids()).toEqual(['1']);
    expect((await account.labels.list())[0]).toBeInstanceOf(TnLabel.scope('red'));

    // A pointer is checked in the pointer's own tenant: account 1 of red is no parent in green.
    await expect(GreenInvoice.create({ amount: 1, accountId: '1' } as never)).rejects.toThrow(RelationError);
    const green = await GreenAccount.create({ email: 'g@x.io', plan: 'free' });
    await expect(green.labels.add('1')).rejects.toThrow(RelationError); // red has label 1, green none
    const greenLabel = await GreenLabel.create({ name: 'vip' });
    await green.labels.add(greenLabel);
    await green.invoices.create({ amount: 5 });

    // A cascade and a membership cleanup in green touch nothing in red.
    const redBefore = (await snapshotKeys(redis.raw, redis.prefix)) as Record<string, unknown>;
    await green.remove();
    const after = (await snapshotKeys(redis.raw, redis.prefix)) as Record<string, unknown>;
    const outsideGreen = (snapshot: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(snapshot).filter(([key]) => !key.includes('{green/')));
    expect(outsideGreen(after)).toEqual(outsideGreen(redBefore));
    expect(await GreenInvoice.count()).toBe(0);
    expect(await greenLabel.accounts.count()).toBe(0);
    await expectTenantConsistent('green');
    await expectTenantConsistent('red');
  });

  it('drop() removes exactly one model of one tenant', async () => {
    await fill(undefined); // the unscoped models hold the same ids and values
    const before = await snapshotKeys(redis.raw, redis.prefix);
    const base = `${redis.prefix}:{blue/crm}:TnInvoice:`;
    const dropped = Object.keys(before).filter((key) => key.startsWith(base));
    expect(dropped.length).toBeGreaterThan(3);
    expect(await TnInvoice.scope('blue').drop()).toBe(dropped.length);
    const after = await snapshotKeys(redis.raw, redis.prefix);
    const rest = Object.fromEntries(Object.entries(before).filter(([key]) => !key.startsWith(base)));
    expect(after).toEqual(rest);
    expect(await TnInvoice.scope('blue').count()).toBe(0);
    expect(await TnInvoice.scope('red').count()).toBe(3);
    expect(await TnInvoice.count()).toBe(3);
    expect(await TnInvoice.scope('blue').drop()).toBe(0); // nothing left: harmless

    // An ungrouped model's tenant keys, sequence included: ids start again from 1.
    expect(await TnSetting.scope('blue').drop()).toBeGreaterThan(0);
    expect((await TnSetting.scope('blue').create({ key: 'theme' })).id).toBe('1');
    expect(await TnSetting.scope('red').count()).toBe(1);
  });

  it('drop() on an unscoped model and invalid tenant names throw', async () => {
    await expect(TnInvoice.drop()).rejects.toThrow(/scope\(tenant\)/);
    await expect(TnSetting.drop()).rejects.toThrow(RedisRecordError);
    for (const tenant of ['', 'a b', 'x{y}', 'a/b', 'a:b', 'a*', 'x'.repeat(65), 42 as unknown as string]) {
      expect(() => TnAccount.scope(tenant)).toThrow(RedisRecordError);
    }
    expect(TnAccount.scope('x'.repeat(64))).toBeDefined();
    // A scope of a scope is the root model's scope.
    expect(TnAccount.scope('red').scope('blue')).toBe(TnAccount.scope('blue'));
    expect(await TnAccount.scope('red').scope('blue').count()).toBe(3);
  });
});

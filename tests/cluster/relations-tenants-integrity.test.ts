import {
  Attr,
  BaseEntity,
  BelongsTo,
  CrossSlotError,
  HasMany,
  Index,
  ManyToMany,
  Model,
  RelationError,
  transaction,
  TransactionRefusedError,
  Unique,
  UniqueConstraintError,
} from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { clusterKeysUnder, keysPerMaster, useTestCluster } from '../support/test-cluster';

/**
 * Relations within a group (cascade, restrict, nullify, many-to-many), tenants, check/repair/reindex and drop on
 * a Redis Cluster: a group's keys share one slot, so every relation script is atomic there; tenants spread
 * over the masters; the integrity tools scan every master.
 */

@Model({ group: 'shop' })
class CrCustomer extends BaseEntity {
  @Attr() @Unique() email!: string;
  @HasMany(() => CrOrder, { inverse: 'customer', onDelete: 'cascade' }) orders!: HasMany<CrOrder>;
  @HasMany(() => CrReview, { inverse: 'author' }) reviews!: HasMany<CrReview>; // restrict
  @ManyToMany(() => CrTag, { inverse: 'customers' }) tags!: ManyToMany<CrTag>;
}

@Model({ group: 'shop' })
class CrOrder extends BaseEntity {
  @BelongsTo(() => CrCustomer) customer!: BelongsTo<CrCustomer>;
  customerId?: string;
  @BelongsTo(() => CrAgent) agent!: BelongsTo<CrAgent>;
  agentId?: string;
  @Attr() @Index() total!: number;
}

@Model({ group: 'shop' })
class CrAgent extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => CrOrder, { inverse: 'agent', onDelete: 'nullify' }) orders!: HasMany<CrOrder>;
}

@Model({ group: 'shop' })
class CrReview extends BaseEntity {
  @BelongsTo(() => CrCustomer) author!: BelongsTo<CrCustomer>;
  @Attr() text!: string;
}

@Model({ group: 'shop' })
class CrTag extends BaseEntity {
  @Attr() @Unique() name!: string;
  @ManyToMany(() => CrCustomer, { inverse: 'tags' }) customers!: ManyToMany<CrCustomer>;
}

// Related, but not in one group: their keys are in different slots, of different masters (slots 10997 and 5455
// with redis-cli's even split of the slots over three masters).
@Model()
class CrFreeParent extends BaseEntity {
  @Attr() name?: string;
  @HasMany(() => CrFreeChild, { inverse: 'parent', onDelete: 'cascade' }) children!: HasMany<CrFreeChild>;
}

@Model()
class CrFreeChild extends BaseEntity {
  @BelongsTo(() => CrFreeParent) parent!: BelongsTo<CrFreeParent>;
  parentId?: string;
}

// Related, not in one group, and in slots of one master (7283, 5905 and 7935): Redis would run their scripts
// there, and stop them part way once a resharding moved one slot away.
@Model()
class CrSameParent extends BaseEntity {
  @Attr() name?: string;
  @HasMany(() => CrSameChild, { inverse: 'parent', onDelete: 'cascade' }) children!: HasMany<CrSameChild>;
  @ManyToMany(() => CrSameTag, { inverse: 'parents' }) tags!: ManyToMany<CrSameTag>;
}

@Model()
class CrSameChild extends BaseEntity {
  @BelongsTo(() => CrSameParent) parent!: BelongsTo<CrSameParent>;
  parentId?: string;
  @Attr() title?: string;
}

@Model()
class CrSameTag extends BaseEntity {
  @Attr() label?: string;
  @ManyToMany(() => CrSameParent, { inverse: 'tags' }) parents!: ManyToMany<CrSameParent>;
}

const cluster = useTestCluster();
const shopModels = [CrCustomer, CrOrder, CrAgent, CrReview, CrTag];

async function expectShopConsistent(models: readonly Function[] = shopModels): Promise<void> {
  for (const model of models) await expectIndexesConsistent(model, cluster.raw, cluster.prefix);
  await expectRelationsConsistent(models, cluster.raw, cluster.prefix);
}

describe('relations within a group', () => {
  it('cascades, nullifies, restricts and keeps many-to-many memberships on both sides', async () => {
    const ann = await CrCustomer.create({ email: 'ann@x.io' });
    const agent = await CrAgent.create({ name: 'ag' });
    await ann.orders.create({ total: 10, agentId: agent.id } as never);
    await ann.orders.create({ total: 20 });
    const vip = await CrTag.create({ name: 'vip' });
    await ann.tags.add(vip);
    expect(await vip.customers.ids()).toEqual([ann.id]);
    await expect(CrOrder.create({ total: 1, customerId: '999' } as never)).rejects.toThrow(RelationError);

    await agent.remove(); // nullify: the order stays, without its agent
    expect((await CrOrder.findOrFail('1')).agentId).toBeUndefined();

    const review = await CrReview.create({ text: 'ok', authorId: ann.id } as never);
    await expect(ann.remove()).rejects.toThrow(RelationError); // restrict: nothing removed
    expect(await CrOrder.count()).toBe(2);
    await review.remove();
    await ann.remove(); // cascade to the orders, memberships removed from the tag
    expect(await CrOrder.count()).toBe(0);
    expect(await vip.customers.count()).toBe(0);
    await expectShopConsistent();
    const keys = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    expect(keys.filter((k) => k.includes('{shop}:CrOrder:obj:'))).toEqual([]);
  });

  it('removeMany in chunks: each object with its cascade and memberships; a restrict refuses its own object only', async () => {
    const { saved: customers } = await CrCustomer.saveMany(Array.from({ length: 7 }, (_, i) => ({ email: `bulk${i}@x.io` })));
    const tag = await CrTag.create({ name: 'bulk' });
    for (const customer of customers) {
      await customer.orders.create({ total: 5 });
      await customer.tags.add(tag);
    }
    const review = await CrReview.create({ text: 'keeps its author', authorId: customers[4].id } as never);
    const orders = await CrOrder.count();
    const result = await CrCustomer.removeMany(
      customers.map((customer) => customer.id!),
      { chunkSize: 3 },
    );
    expect(result.removed).toEqual(customers.filter((_, i) => i !== 4).map((customer) => customer.id));
    expect(result.failed.map((failure) => [failure.index, failure.error.name])).toEqual([[4, 'RelationError']]);
    expect(await CrOrder.count()).toBe(orders - 6);
    expect(await tag.customers.ids()).toEqual([customers[4].id]);
    await review.remove();
    await customers[4].remove();
    await tag.remove();
    await expectShopConsistent();
  });
});

describe('relations across groups', () => {
  const slotOwner = async (key: string) => {
    const slot = Number(await cluster.cluster.sendCommand(key, true, ['CLUSTER', 'KEYSLOT', key]));
    return cluster.cluster.slots[slot].master.port;
  };

  it('are refused with CrossSlotError naming the fix, and nothing is written', async () => {
    expect(await slotOwner('{CrFreeParent}')).not.toBe(await slotOwner('{CrFreeChild}'));
    const parent = await CrFreeParent.create({ name: 'p' });
    const before = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    const error = await CrFreeChild.create({ parentId: parent.id } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrossSlotError);
    expect((error as Error).message).toMatch(/@Model\(\{ group \}\)/);
    await expect(parent.remove()).rejects.toThrow(CrossSlotError);
    await expect(CrFreeParent.removeMany([parent.id!])).rejects.toThrow(CrossSlotError);
    expect(await clusterKeysUnder(cluster.cluster, cluster.prefix)).toEqual(before);
  });

  it('are refused alike when the slots share a master, before anything is sent; what reaches no other tag runs', async () => {
    expect(await slotOwner('{CrSameChild}')).toBe(await slotOwner('{CrSameParent}'));
    expect(await slotOwner('{CrSameTag}')).toBe(await slotOwner('{CrSameParent}'));
    const parent = await CrSameParent.create({ name: 'p' });
    const tag = await CrSameTag.create({ label: 't' });
    const loose = await CrSameChild.create({ title: 'no parent' }); // no foreign key: nothing to reach
    const before = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    const refused = await CrSameChild.create({ title: 'c', parentId: parent.id } as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CrossSlotError);
    expect((refused as Error).message).toBe(
      'CrSameChild.parent: checking the parent reaches CrSameParent under hash tag {CrSameParent} from {CrSameChild}, which one script cannot touch on a Redis Cluster: give related models one group, @Model({ group })',
    );
    loose.parent.set(parent);
    await expect(loose.save()).rejects.toThrow(CrossSlotError); // an update setting the foreign key
    await expect(parent.remove()).rejects.toThrow(
      /CrSameParent: removing an object reaches keys under hash tag \{CrSameTag\} \(its relations\)/,
    );
    await expect(CrSameParent.removeMany([parent.id])).rejects.toThrow(CrossSlotError);
    await expect(parent.tags.add(tag)).rejects.toThrow(CrossSlotError); // Redis refuses the script's declared keys
    expect(await clusterKeysUnder(cluster.cluster, cluster.prefix)).toEqual(before);
    // in a bulk call, the item setting the foreign key fails alone
    const bulk = await CrSameChild.saveMany([{ title: 'free' }, { title: 'bound', parentId: parent.id } as never]);
    expect(bulk.saved.map((child) => child.title)).toEqual(['free']);
    expect(bulk.failed.map((failure) => [failure.index, failure.error.constructor.name, failure.written])).toEqual([
      [1, 'CrossSlotError', false],
    ]);
    const updated = await CrSameChild.saveMany([Object.assign(bulk.saved[0], { parentId: parent.id })]);
    expect(updated.failed.map((failure) => failure.error.constructor.name)).toEqual(['CrossSlotError']);
    expect((await CrSameChild.findOrFail(bulk.saved[0].id)).parentId).toBeUndefined();
    expect(await CrSameChild.count()).toBe(2);
  });
});

describe('transactions', () => {
  it('write the models of one group all or nothing, and refuse two hash tags before sending anything', async () => {
    const customer = CrCustomer.build({ email: 'tx@shop.io' });
    const agent = CrAgent.build({ name: 'tx agent' });
    await transaction((tx) => [tx.save(customer), tx.save(agent)]);
    const order = CrOrder.build({ total: 12 });
    order.customer.set(customer);
    order.agent.set(agent);
    const taken = CrCustomer.build({ email: 'tx@shop.io' });
    const refused = await transaction((tx) => [tx.save(order), tx.save(taken)]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TransactionRefusedError);
    expect((refused as TransactionRefusedError).cause).toBeInstanceOf(UniqueConstraintError);
    expect([order.isPersisted(), await CrOrder.count()]).toEqual([false, 0]);
    await transaction((tx) => [tx.save(order), tx.remove(agent)]);
    expect([(await CrOrder.findOrFail(order.id!)).agentId, await CrAgent.exists(agent.id!)]).toEqual([undefined, false]);

    const parent = CrFreeParent.build({ name: 'other tag' });
    const before = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    await expect(transaction((tx) => [tx.save(CrCustomer.build({ email: 'tx2@shop.io' })), tx.save(parent)])).rejects.toThrow(
      CrossSlotError,
    );
    expect(await clusterKeysUnder(cluster.cluster, cluster.prefix)).toEqual(before);
    await expectShopConsistent();
  });
});

describe('tenants', () => {
  it('keep identical ids and unique values apart, spread over the masters, and drop exactly one tenant', async () => {
    const tenants = ['acme', 'beta', 'gamma', 'delta', 'omega', 'zulu', 'kilo', 'lima'];
    for (const tenant of tenants) {
      const Customer = CrCustomer.scope(tenant);
      const first = await Customer.create({ email: 'same@x.io' });
      await first.orders.create({ total: 5 });
      await expect(Customer.create({ email: 'same@x.io' })).rejects.toThrow(UniqueConstraintError);
      expect(first.id).toBe('1');
    }
    const perMaster = await keysPerMaster(cluster.cluster, cluster.prefix);
    expect([...perMaster.values()].filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    await expectShopConsistent(shopModels.map((m) => (m as typeof CrCustomer).scope('delta')));

    expect(await CrOrder.scope('delta').drop()).toBeGreaterThan(0);
    const keys = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    expect(keys.some((k) => k.startsWith(`${cluster.prefix}:{delta/shop}:CrOrder:`))).toBe(false);
    expect(keys.some((k) => k.startsWith(`${cluster.prefix}:{delta/shop}:CrCustomer:`))).toBe(true);
    expect(await CrOrder.scope('omega').count()).toBe(1);
  });
});

describe('check, repair and reindex', () => {
  it('find damage on any master, repair it, and leave every invariant true', async () => {
    const Customer = CrCustomer.scope('gamma');
    const Order = CrOrder.scope('gamma');
    await Order.create({ total: 7, customerId: '1' } as never);
    const base = `${cluster.prefix}:{gamma/shop}:CrOrder`;
    await cluster.raw.zRem(`${base}:idx:total`, '1'); // a missing entry
    await cluster.raw.hSet(`${cluster.prefix}:{gamma/shop}:CrCustomer:uniq:email`, 'ghost@x.io', '42'); // an owner that does not exist
    const found = await Order.check();
    expect(found.violations.map((v) => v.kind)).toContain('missingEntry');
    expect((await Customer.check()).violations.map((v) => v.kind)).toContain('uniqueOwner');
    await Order.repair();
    await Customer.repair();
    expect((await Order.check()).violations).toEqual([]);
    expect((await Customer.check()).violations).toEqual([]);
    const reindexed = await CrOrder.reindex();
    expect(reindexed.scopes).toBeGreaterThanOrEqual(8);
    await expectShopConsistent(shopModels.map((m) => (m as typeof CrCustomer).scope('gamma')));
  });
});

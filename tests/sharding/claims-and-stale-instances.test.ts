import { Attr, BaseEntity, Model, NotFoundError, StaleObjectError, Unique, UniqueConstraintError, Version } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { descriptorOf } from '../../src/model/model-registry';
import { describeModel } from '../../src/schema/describe-model';
import { modelScope } from '../../src/integrity/model-scope';
import { findClaimViolations } from '../../src/integrity/check-model';
import { applyFix } from '../../src/integrity/apply-fix';
import { CLAIM_GRACE_MS } from '../../src/store/unique-claims';
import { useTestRedis } from '../support/test-redis';

/**
 * Claims of a sharded model's unique values when several instances of one object write (docs/cluster.md,
 * "Unique values across shards"): a failed save never frees a claim its object holds, a save or remove through
 * an instance loaded before another one changed the object frees what was stored, and repair() leaves the
 * claim of a writer between its claim and its write alone.
 */

@Model({ shards: 4 })
class VersionedHandle extends BaseEntity {
  @Attr() @Unique() handle?: string;
  @Version() version?: number;
}

@Model({ shards: 4 })
class TwoUniques extends BaseEntity {
  @Attr() @Unique() handle?: string;
  @Attr() @Unique() code?: string;
}

@Model({ shards: 4 })
class MailAccount extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() name?: string;
}

@Model({ shards: 4, expirable: true })
class ExpiringHandle extends BaseEntity {
  @Attr() @Unique() handle?: string;
}

const redis = useTestRedis();

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const claimOf = (model: string, attribute: string, value: string) =>
  redis.raw.get(claimKey(redis.prefix, model, undefined, attribute, value));
const holderOf = async (model: string, attribute: string, value: string) => (await claimOf(model, attribute, value))?.split(' ')[0];

/** Eight creates of `handle` at once, spread over the shards: how many went through. */
async function creates(model: typeof TwoUniques, handle: string): Promise<number> {
  const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => model.create({ handle })));
  return attempts.filter((attempt) => attempt.status === 'fulfilled').length;
}

describe('a failed save keeps the claims its object held', () => {
  it('a stale save (StaleObjectError) setting the value the object holds now does not release its claim', async () => {
    const member = await VersionedHandle.create({ handle: 'v-x' });
    const stale = await VersionedHandle.findOrFail(member.id);
    const fresh = await VersionedHandle.findOrFail(member.id);
    fresh.handle = 'v-y';
    await fresh.save();
    stale.handle = 'v-y';
    expect(await failure(stale.save())).toBeInstanceOf(StaleObjectError);
    expect(await holderOf('VersionedHandle', 'handle', 'v-y')).toBe(member.id);
    expect(await creates(VersionedHandle as unknown as typeof TwoUniques, 'v-y')).toBe(0);
    expect((await VersionedHandle.check()).violations).toEqual([]);
  });

  it('a save refused for another value (UniqueConstraintError) does not release a claim the object holds', async () => {
    const member = await TwoUniques.create({ handle: 't-x' });
    await TwoUniques.create({ code: 't-taken' });
    const stale = await TwoUniques.findOrFail(member.id);
    member.handle = 't-y';
    await member.save();
    stale.handle = 't-y';
    stale.code = 't-taken';
    expect(await failure(stale.save())).toBeInstanceOf(UniqueConstraintError);
    expect(await holderOf('TwoUniques', 'handle', 't-y')).toBe(member.id);
    expect(await creates(TwoUniques, 't-y')).toBe(0);
    expect((await TwoUniques.findBy({ handle: 't-y' })).map((m) => m.id)).toEqual([member.id]);
  });

  it('a refused save still releases the claims it took', async () => {
    await TwoUniques.create({ code: 't-held' });
    const member = await TwoUniques.create({ handle: 't-before' });
    member.handle = 't-wanted';
    member.code = 't-held';
    expect(await failure(member.save())).toBeInstanceOf(UniqueConstraintError);
    expect(await claimOf('TwoUniques', 'handle', 't-wanted')).toBeNull();
    expect(await holderOf('TwoUniques', 'handle', 't-before')).toBe(member.id);
  });
});

describe('an update of an object that is gone, or saved since', () => {
  // as on an unsharded model, whose save.lua finds the object gone before it looks at unique values
  it('is a NotFoundError, also when its new value is held by another object, and claims nothing', async () => {
    await TwoUniques.create({ handle: 'g-taken' });
    const gone = await TwoUniques.create({ handle: 'g-mine' });
    const viaSave = await TwoUniques.findOrFail(gone.id);
    const viaSaveMany = await TwoUniques.findOrFail(gone.id);
    await gone.remove();
    viaSave.handle = 'g-taken';
    viaSave.code = 'g-code';
    expect(await failure(viaSave.save())).toBeInstanceOf(NotFoundError);
    viaSaveMany.handle = 'g-taken';
    viaSaveMany.code = 'g-code';
    const result = await TwoUniques.saveMany([viaSaveMany]);
    expect(result.failed.map((failed) => failed.error)).toEqual([expect.any(NotFoundError)]);
    expect(await claimOf('TwoUniques', 'code', 'g-code')).toBeNull();
    expect(await TwoUniques.create({ code: 'g-code' })).toBeTruthy();
  });

  it('with @Version, an update of an object saved since is a StaleObjectError, also when its new value is held', async () => {
    await VersionedHandle.create({ handle: 'vs-taken' });
    const member = await VersionedHandle.create({ handle: 'vs-mine' });
    const viaSave = await VersionedHandle.findOrFail(member.id);
    const viaSaveMany = await VersionedHandle.findOrFail(member.id);
    member.handle = 'vs-moved';
    await member.save();
    viaSave.handle = 'vs-taken';
    expect(await failure(viaSave.save())).toBeInstanceOf(StaleObjectError);
    viaSaveMany.handle = 'vs-taken';
    const result = await VersionedHandle.saveMany([viaSaveMany]);
    expect(result.failed.map((failed) => failed.error)).toEqual([expect.any(StaleObjectError)]);
    expect(await holderOf('VersionedHandle', 'handle', 'vs-moved')).toBe(member.id);
  });

  it('is a NotFoundError when the object has expired', async () => {
    const holder = await ExpiringHandle.create({ handle: 'e-taken' });
    const expiring = await ExpiringHandle.create({ handle: 'e-mine' });
    await expiring.expire(0.01);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expiring.handle = holder.handle;
    expect(await failure(expiring.save())).toBeInstanceOf(NotFoundError);
  });
});

describe('a write through an instance loaded before another one changed the object frees what was stored', () => {
  it('save(): the value the object held (not the one the instance loaded) is free at once', async () => {
    const original = await MailAccount.create({ email: 'first@x.io' });
    const other = await MailAccount.findOrFail(original.id);
    other.email = 'second@x.io';
    await other.save();
    original.email = 'third@x.io';
    await original.save();
    expect((await MailAccount.findOrFail(original.id)).email).toBe('third@x.io');
    expect(await claimOf('MailAccount', 'email', 'second@x.io')).toBeNull();
    const taker = await MailAccount.create({ email: 'SECOND@x.io' });
    expect(await holderOf('MailAccount', 'email', 'second@x.io')).toBe(taker.id);
    expect(await holderOf('MailAccount', 'email', 'third@x.io')).toBe(original.id);
    expect((await MailAccount.check()).violations).toEqual([]);
  });

  it('save() clearing the value: the value the object held is free at once', async () => {
    const original = await MailAccount.create({ email: 'clear1@x.io' });
    const other = await MailAccount.findOrFail(original.id);
    other.email = 'clear2@x.io';
    await other.save();
    original.email = undefined;
    await original.save();
    expect(await claimOf('MailAccount', 'email', 'clear2@x.io')).toBeNull();
    await MailAccount.create({ email: 'clear2@x.io' });
  });

  it('save() changing another attribute only keeps the claim of the value the object still holds', async () => {
    const original = await MailAccount.create({ email: 'kept1@x.io', name: 'a' });
    const other = await MailAccount.findOrFail(original.id);
    other.email = 'kept2@x.io';
    await other.save();
    original.name = 'b';
    await original.save();
    expect(await holderOf('MailAccount', 'email', 'kept2@x.io')).toBe(original.id);
    expect(await failure(MailAccount.create({ email: 'kept2@x.io' }))).toBeInstanceOf(UniqueConstraintError);
  });

  it('remove(): the value the object held is free at once', async () => {
    const original = await MailAccount.create({ email: 'stale-remove@x.io' });
    const other = await MailAccount.findOrFail(original.id);
    other.email = 'moved@x.io';
    await other.save();
    const id = original.id;
    await original.remove();
    expect(await MailAccount.find(id)).toBeNull();
    expect(await claimOf('MailAccount', 'email', 'moved@x.io')).toBeNull();
    await MailAccount.create({ email: 'moved@x.io' });
    expect((await MailAccount.check()).violations).toEqual([]);
  });

  it('saveMany(): the same, item by item', async () => {
    const original = await MailAccount.create({ email: 'bulk-first@x.io' });
    const other = await MailAccount.findOrFail(original.id);
    other.email = 'bulk-second@x.io';
    await other.save();
    original.email = 'bulk-third@x.io';
    expect((await MailAccount.saveMany([original])).failed).toEqual([]);
    expect(await claimOf('MailAccount', 'email', 'bulk-second@x.io')).toBeNull();
    await MailAccount.create({ email: 'bulk-second@x.io' });
  });

  it('saveMany(): an item taking the value such an instance gives up is written after it, as save() in that order', async () => {
    // `stale` was loaded with give-1, the object holds give-2 now: its update gives up give-2, which `taker` wants
    const loaded = async () => {
      const original = await MailAccount.create({ email: `${prefix}-1@x.io` });
      const stale = await MailAccount.findOrFail(original.id);
      original.email = `${prefix}-2@x.io`;
      await original.save();
      stale.email = `${prefix}-3@x.io`;
      const taker = await MailAccount.create({ email: `${prefix}-4@x.io` });
      taker.email = `${prefix}-2@x.io`;
      return { stale, taker };
    };
    let prefix = 'give';
    const { stale, taker } = await loaded();
    expect((await MailAccount.saveMany([stale, taker])).failed).toEqual([]);
    expect((await MailAccount.findOrFail(stale.id)).email).toBe('give-3@x.io');
    expect((await MailAccount.findOrFail(taker.id)).email).toBe('give-2@x.io');
    expect(await holderOf('MailAccount', 'email', 'give-2@x.io')).toBe(taker.id);
    expect(await holderOf('MailAccount', 'email', 'give-3@x.io')).toBe(stale.id);
    // given the other way round, the value is still held when the taker's turn comes, as with save() in that order
    prefix = 'late';
    const late = await loaded();
    const result = await MailAccount.saveMany([late.taker, late.stale]);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor])).toEqual([[0, UniqueConstraintError]]);
    expect(await holderOf('MailAccount', 'email', 'late-2@x.io')).toBeUndefined();
    expect((await MailAccount.findOrFail(late.taker.id)).email).toBe('late-4@x.io');
    expect((await MailAccount.check()).violations).toEqual([]);
  });

  it('saveMany(): an update whose version was assigned by hand gives up its value first too (the version is no error)', async () => {
    for (let round = 0; round < 5; round++) {
      const giver = await VersionedHandle.findOrFail((await VersionedHandle.create({ handle: `hand-${round}-a` })).id);
      (giver as unknown as Record<string, unknown>).version = 'abc';
      giver.handle = `hand-${round}-b`;
      const taker = await VersionedHandle.create({ handle: `hand-${round}-c` });
      taker.handle = `hand-${round}-a`;
      expect((await VersionedHandle.saveMany([giver, taker])).failed).toEqual([]);
      expect(await holderOf('VersionedHandle', 'handle', `hand-${round}-a`)).toBe(taker.id);
      expect(await holderOf('VersionedHandle', 'handle', `hand-${round}-b`)).toBe(giver.id);
      expect(giver.version).toBe(2);
    }
    expect((await VersionedHandle.check()).violations).toEqual([]);
  });
});

describe('repair() while the application writes', () => {
  it('leaves the fresh claim of a writer between its claim and its write alone', async () => {
    const member = await TwoUniques.create({ handle: 'r-old' });
    // the state between a save's claim (step 2) and its write (step 3): the claim is the object's, the value not yet
    const key = claimKey(redis.prefix, 'TwoUniques', undefined, 'handle', 'r-inflight');
    await redis.raw.set(key, `${member.id} ${Date.now()}`);
    expect((await TwoUniques.check()).violations.filter((violation) => violation.key === key)).toEqual([]);
    expect((await TwoUniques.repair()).fixed.filter((line) => line.includes(key))).toEqual([]);
    expect(await holderOf('TwoUniques', 'handle', 'r-inflight')).toBe(member.id);
    // the write goes through, and the value is the object's alone
    member.handle = 'r-inflight';
    await member.save();
    expect(await failure(TwoUniques.create({ handle: 'r-inflight' }))).toBeInstanceOf(UniqueConstraintError);
    expect(await TwoUniques.count({ handle: 'r-inflight' })).toBe(1);
  });

  it("does not claim a value back for its holder while another object's fresh claim stands; does once it is stale", async () => {
    const holder = await TwoUniques.create({ handle: 'r-held' });
    const writer = await TwoUniques.create({ code: 'r-writer' });
    // the holder's claim was lost and another writer claimed the value a moment ago
    const key = claimKey(redis.prefix, 'TwoUniques', undefined, 'handle', 'r-held');
    await redis.raw.set(key, `${writer.id} ${Date.now()}`);
    const repaired = await TwoUniques.repair();
    expect(repaired.left.filter((violation) => violation.key === key)).toEqual([
      expect.objectContaining({ kind: 'unclaimedUnique', id: holder.id }),
    ]);
    expect(await holderOf('TwoUniques', 'handle', 'r-held')).toBe(writer.id);
    await redis.raw.set(key, `${writer.id} ${Date.now() - CLAIM_GRACE_MS - 1000}`);
    expect((await TwoUniques.repair()).left.filter((violation) => violation.key === key)).toEqual([]);
    expect(await holderOf('TwoUniques', 'handle', 'r-held')).toBe(holder.id);
  });

  it('releases only the exact claim the check found stale, not one taken again meanwhile', async () => {
    const member = await TwoUniques.create({ handle: 'r-member' });
    const key = claimKey(redis.prefix, 'TwoUniques', undefined, 'handle', 'r-again');
    await redis.raw.set(key, `${member.id} ${Date.now() - CLAIM_GRACE_MS - 1000}`);
    const scope = modelScope(redis.raw, redis.prefix, describeModel(descriptorOf(TwoUniques)), () => undefined);
    const findings = await findClaimViolations(scope);
    const fix = findings.list.find((finding) => finding.violation.key === key)?.fix;
    expect(fix).toMatchObject({ type: 'releaseClaim', key, holder: member.id });
    // the object claims the value again (a new save) between the check and the fix
    const renewed = `${member.id} ${Date.now()}`;
    await redis.raw.set(key, renewed);
    expect((await applyFix(scope, fix!)).line).toMatch(/left/);
    expect(await redis.raw.get(key)).toBe(renewed);
    await redis.raw.del(key);
  });
});

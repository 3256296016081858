import { Attr, BaseEntity, Model, Unique, UniqueConstraintError } from '../../src';
import { claimKey } from '../../src/keys/claim-keys';
import { descriptorOf } from '../../src/metadata/model-registry';
import { describeModel } from '../../src/schema/describe-model';
import { modelScope } from '../../src/integrity/model-scope';
import { findClaimViolations } from '../../src/integrity/check-model';
import { applyFix } from '../../src/integrity/apply-fix';
import { CLAIM_GRACE_MS } from '../../src/mapper/unique-claims';
import { useTestRedis } from '../support/test-redis';

/**
 * Claims of a sharded model's unique values while the application writes (docs/cluster.md, "Unique values
 * across shards"): repair() leaves the claim of a writer between its claim and its write alone.
 */

@Model({ shards: 4 })
class TwoUniques extends BaseEntity {
  @Attr() @Unique() handle?: string;
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const holderOf = async (model: string, attribute: string, value: string) =>
  (await redis.raw.get(claimKey(redis.prefix, model, undefined, attribute, value)))?.split(' ')[0];

describe('repair() while the application writes', () => {
  it('leaves the fresh claim of a writer between its claim and its write alone', async () => {
    const member = await TwoUniques.create({ handle: 'r-old' });
    // the state between a save's claim (step 2) and its write (step 3): the claim is the object's, the value not yet
    const key = claimKey(redis.prefix, 'TwoUniques', undefined, 'handle', 'r-inflight');
    await redis.raw.set(key, `${member.id} ${Date.now()}`);
    expect((await TwoUniques.check()).violations).toEqual([]);
    expect((await TwoUniques.repair()).fixed).toEqual([]);
    expect(await holderOf('TwoUniques', 'handle', 'r-inflight')).toBe(member.id);
    // the write goes through, and the value is the object's alone
    member.handle = 'r-inflight';
    await member.save();
    expect(await failure(TwoUniques.create({ handle: 'r-inflight' }))).toBeInstanceOf(UniqueConstraintError);
    expect(await TwoUniques.count({ handle: 'r-inflight' })).toBe(1);
  });

  it('does not claim a value back for its holder while another object\'s fresh claim stands; does once it is stale', async () => {
    const holder = await TwoUniques.create({ handle: 'r-held' });
    const writer = await TwoUniques.create({ code: 'r-writer' });
    // the holder's claim was lost and another writer claimed the value a moment ago
    const key = claimKey(redis.prefix, 'TwoUniques', undefined, 'handle', 'r-held');
    await redis.raw.set(key, `${writer.id} ${Date.now()}`);
    const repaired = await TwoUniques.repair();
    expect(repaired.left).toEqual([expect.objectContaining({ kind: 'unclaimedUnique', id: holder.id, key })]);
    expect(await holderOf('TwoUniques', 'handle', 'r-held')).toBe(writer.id);
    await redis.raw.set(key, `${writer.id} ${Date.now() - CLAIM_GRACE_MS - 1000}`);
    expect((await TwoUniques.repair()).left).toEqual([]);
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
    expect(await applyFix(scope, fix!)).toMatch(/left/);
    expect(await redis.raw.get(key)).toBe(renewed);
    await redis.raw.del(key);
  });
});

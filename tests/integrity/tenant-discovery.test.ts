import { Attr, BaseEntity, Index, Model } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';
import { useCli } from '../cli/run-cli';

/**
 * Tenants are found by SCAN for the model's keys with any tenant in the hash tag (`<prefix>:{*\/<Model>}:...`).
 * The pattern also matches index keys of other models whose stored values contain `/<Model>}`: those are not
 * tenants, and reindex() and the CLI must leave them alone (docs/tenants.md: a tenant name never forges a key).
 */

@Model()
class TdTarget extends BaseEntity {
  @Attr() @Index() a!: string;
}

@Model()
class TdTarget2 extends BaseEntity {
  @Attr() @Index() a!: string;
}

@Model()
class TdTarget3 extends BaseEntity {
  @Attr() @Index() a!: string;
}

@Model()
class TdListed extends BaseEntity {
  @Attr() @Index() a!: string;
}

@Model()
class TdVictim2 extends BaseEntity {
  @Attr() cat!: string;
  @Attr() @Index({ scope: 'cat' }) n!: number;
}

@Model()
class TdVictim extends BaseEntity {
  @Attr() @Index() tag!: string;
}

const redis = useTestRedis();
const cli = useCli(redis.prefix);

async function editStored(name: string, edit: (def: { indexes: unknown[] }) => void): Promise<void> {
  const key = `${redis.prefix}#models`;
  const def = JSON.parse((await redis.raw.hGet(key, name))!);
  edit(def);
  await redis.raw.hSet(key, name, JSON.stringify(def));
}

describe('values of other models that look like tenant keys', () => {
  it('reindex() of a model with a dropped index does not delete index keys of another model', async () => {
    await TdTarget.create({ a: '1' });
    await TdTarget.scope('good').create({ a: '1' });
    await TdVictim.create({ tag: 'x/TdTarget}:all' });
    await TdVictim.create({ tag: 'x/TdTarget}:idx:b:y' });
    // the stored definition has an index `b` the model no longer declares: reindex() deletes its keys
    await expectIndexesConsistent(TdVictim, redis.raw, redis.prefix);
    await editStored('TdTarget', (def) => def.indexes.push({ kind: 'set', attribute: 'b', scope: null, caseInsensitive: false }));
    const result = await TdTarget.reindex();
    expect(result.dropped).toEqual(['set:b']);
    // TdVictim's index must be untouched
    expect(await redis.raw.sMembers(`${redis.prefix}:{TdVictim}:idx:tag:x/TdTarget}:idx:b:y`)).toEqual(['2']);
    await expectIndexesConsistent(TdVictim, redis.raw, redis.prefix);
    expect(result.scopes).toBe(2); // outside tenants, and tenant "good"
  });

  it("reindex() of a model with an added index is not broken by another model's index key", async () => {
    await TdTarget2.create({ a: '1' });
    await TdVictim.create({ tag: 'x/TdTarget2}:all' }); // a SET named ...:all
    await editStored('TdTarget2', (def) => def.indexes.splice(0));
    await redis.raw.del(`${redis.prefix}:{TdTarget2}:idx:a:1`);
    const result = await TdTarget2.reindex(); // the victim's set is no `all` to walk
    expect(result.added).toEqual(['set:a']);
    await expectIndexesConsistent(TdTarget2, redis.raw, redis.prefix);
  });

  it('reindex() of a model with an added index leaves a scoped index of another model alone', async () => {
    await TdTarget3.create({ a: '1' });
    const v = await TdVictim2.create({ cat: 'x/TdTarget3}:all', n: 5 }); // a ZSET named ...:all
    expect(await TdVictim2.findIds({ cat: 'x/TdTarget3}:all' }, { orderBy: { n: 'asc' } })).toEqual([v.id]);
    await editStored('TdTarget3', (def) => def.indexes.splice(0));
    await TdTarget3.reindex();
    expect(await TdVictim2.findIds({ cat: 'x/TdTarget3}:all' }, { orderBy: { n: 'asc' } })).toEqual([v.id]);
    await expectIndexesConsistent(TdVictim2, redis.raw, redis.prefix);
  });

  it('are not listed as tenants by the CLI', async () => {
    await TdListed.scope('real').create({ a: 'a' });
    // tenant "evil" holds TdVictim data only; one of its index values contains "/TdListed}"
    await TdVictim.scope('evil').create({ tag: 'x/TdListed}:y' });
    const { data } = await cli.json(['models', '--prefix', redis.prefix]);
    const listed = data.models.find((m: { model: string }) => m.model === 'TdListed');
    expect(listed.tenants).toEqual(['real']);
  });
});

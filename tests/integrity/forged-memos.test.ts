import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, SortableString, Unique } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * A memo (`<base>:memo:<id>`) is a hash anyone can write. What it records is acted on only when it can be its
 * object's own entry: a key of the model's (under its key base, of an index kind) and the object's member.
 * Anything else it records (another model's or program's key, another object's member) is left as it is by
 * repair(), remove(), removeMany(), the sweep and the removal of a model with relations.
 */

@Model({ ttl: 3600 })
class FmSess extends BaseEntity {
  @Attr() @Index() user?: string;
  @Attr() @Index({ scope: 'user' }) rank?: number;
  @Attr() @Index({ sortable: true, scope: 'user' }) name?: SortableString;
  @Attr() @Unique() code?: string;
}

@Model()
class FmPost extends BaseEntity {
  @Attr() @Index() topic?: string;
}

@Model({ ttl: 3600, group: 'fmowners' })
class FmOwner extends BaseEntity {
  @Attr() @Index() name?: string;
  @HasMany(() => FmPet, { inverse: 'owner', onDelete: 'cascade' }) pets!: HasMany<FmPet>;
}

@Model({ group: 'fmowners' })
class FmPet extends BaseEntity {
  @Attr() @Index() kind?: string;
  @BelongsTo(() => FmOwner) owner!: BelongsTo<FmOwner>;
  ownerId?: string;
}

const redis = useTestRedis();
const sess = () => `${redis.prefix}:{FmSess}`;
const post = () => `${redis.prefix}:{FmPost}`;
const otherSet = () => `${redis.prefix}:other:set`;
const otherString = () => `${redis.prefix}:other:string`;
const otherHash = () => `${redis.prefix}:other:hash`;
/** The lex member of (value, id), as indexes.lua writes it. */
const lex = (value: string, id: string) => Buffer.concat([Buffer.from(value), Buffer.from([0, 0, id.length]), Buffer.from(id)]);

/**
 * Fields for a memo that name what is not the memo's object's (`id`): object 1's entries in each index kind of
 * FmSess (keys its object is not in: the scoped indexes of user u1), a post's entry, another program's set and a
 * string (a key of another type, which a removal would refuse if it were one of its own).
 */
function forgedFields(id: string): Array<[string, string | Buffer]> {
  return [
    [`S${sess()}:idx:user:u1`, '1'],
    [`Z${sess()}:idx:rank@user:u1`, '1'],
    [`Z${sess()}:lex:name@user:u1`, lex('Ann', '1')],
    [`S${post()}:idx:topic:x`, '1'],
    [`S${otherSet()}`, 'm'],
    [`S${otherString()}`, id],
    [`Z${otherSet()}`, id],
    // a hash of another program's, whose field names this id as a unique hash would: not a key of the model's
    [`U${otherHash()}`, `s${id}`],
  ];
}

async function writeForged(id: string, extra: Array<[string, string | Buffer]> = []): Promise<void> {
  await redis.raw.hSet(otherHash(), `s${id}`, id);
  for (const [field, member] of [...forgedFields(id), ...extra]) await redis.raw.hSet(`${sess()}:memo:${id}`, field, member);
}

/** What the forged memo names, all of which must be left as it is. */
async function expectOthersUntouched(): Promise<void> {
  expect(await redis.raw.sMembers(otherSet())).toEqual(['m']);
  expect(await redis.raw.get(otherString())).toBe('junk');
  expect(await redis.raw.sMembers(`${post()}:idx:topic:x`)).toEqual(['1']);
  for (const [field, id] of Object.entries(await redis.raw.hGetAll(otherHash()))) expect(field).toBe(`s${id}`);
  expect(await redis.raw.hLen(otherHash())).toBe(1);
  expect(await redis.raw.sMembers(`${sess()}:idx:user:u1`)).toEqual(['1']);
  expect(await redis.raw.zScore(`${sess()}:idx:rank@user:u1`, '1')).toBe(1);
  expect(await redis.raw.zScore(`${sess()}:lex:name@user:u1`, lex('Ann', '1') as unknown as string)).toBe(0);
  expect(await redis.raw.hGet(`${sess()}:uniq:code`, 'c1')).toBe('1');
  expect((await FmSess.findBy({ user: 'u1' })).map((s) => s.id)).toEqual(['1']);
  expect((await FmPost.findBy({ topic: 'x' })).map((p) => p.id)).toEqual(['1']);
}

beforeEach(async () => {
  const keys = [];
  for await (const batch of redis.raw.scanIterator({ MATCH: `${redis.prefix}:*`, COUNT: 1000 })) keys.push(...batch);
  if (keys.length > 0) await redis.raw.del(keys);
  await FmSess.create({ user: 'u1', rank: 1, name: 'Ann' as SortableString, code: 'c1' });
  await FmPost.create({ topic: 'x' });
  await redis.raw.sAdd(otherSet(), 'm');
  await redis.raw.set(otherString(), 'junk');
});

describe('repair() of a memo whose object is gone', () => {
  it("drops only the entries that can be its object's, deletes the memo and leaves everything else", async () => {
    // the memo's own dangling entries (an object 7 that is gone), beside entries that are not its
    await redis.raw.sAdd(`${sess()}:idx:user:ghost`, '7');
    await redis.raw.zAdd(`${sess()}:lex:name@user:ghost`, { score: 0, value: lex('Zed', '7') as unknown as string });
    await writeForged('7', [
      [`S${sess()}:idx:user:ghost`, '7'],
      [`Z${sess()}:lex:name@user:ghost`, lex('Zed', '7')],
      // the unique value of object 1: a key of the model's, released only by its owner
      [`U${sess()}:uniq:code`, 'c1'],
    ]);

    const found = await FmSess.check();
    expect(found.violations).toContainEqual(
      expect.objectContaining({
        kind: 'memoMismatch',
        id: '7',
        detail: "memo of 7, which is not in all; records 8 entries that cannot be its object's (another key or member), left as they are",
      }),
    );
    const repaired = await FmSess.repair();
    expect(repaired.fixed).toContain('object 7: memo deleted');
    expect(repaired.left).toEqual([]);
    expect(await redis.raw.exists(`${sess()}:memo:7`)).toBe(0);
    expect(await redis.raw.exists([`${sess()}:idx:user:ghost`, `${sess()}:lex:name@user:ghost`])).toBe(0);
    await expectOthersUntouched();
    expect((await FmSess.check()).violations).toEqual([]);
    expect((await FmPost.check()).violations).toEqual([]);
    await expectIndexesConsistent(FmSess, redis.raw, redis.prefix);
    await expectIndexesConsistent(FmPost, redis.raw, redis.prefix);
  });

  it("names no foreign entry in the detail of a memo that records its object's entries only", async () => {
    await redis.raw.hSet(`${sess()}:memo:8`, `S${sess()}:idx:user:ghost`, '8');
    expect((await FmSess.check()).violations).toEqual([
      expect.objectContaining({ kind: 'memoMismatch', detail: 'memo of 8, which is not in all' }),
    ]);
    await FmSess.repair();
    expect((await FmSess.check()).violations).toEqual([]);
  });
});

describe('removals that read a memo', () => {
  /** Object 2, whose memo also records what is not its own. */
  async function forgedObject(): Promise<FmSess> {
    const two = await FmSess.create({ user: 'u2', rank: 2, name: 'Bo' as SortableString, code: 'c2' });
    await writeForged(two.id!);
    return two;
  }

  async function expectGone(id: string): Promise<void> {
    expect(await redis.raw.exists([`${sess()}:obj:${id}`, `${sess()}:memo:${id}`])).toBe(0);
    expect(await redis.raw.exists([`${sess()}:idx:user:u2`, `${sess()}:idx:rank@user:u2`, `${sess()}:lex:name@user:u2`])).toBe(0);
    expect(await redis.raw.hGet(`${sess()}:uniq:code`, 'c2')).toBeNull();
    await expectOthersUntouched();
    expect((await FmSess.check()).violations).toEqual([]);
  }

  it("remove() drops the object's own entries only (remove-memo.lua)", async () => {
    const two = await forgedObject();
    await two.remove();
    await expectGone(two.id!);
  });

  it("removeMany() drops each object's own entries only (gathered removal)", async () => {
    const two = await forgedObject();
    expect(await FmSess.removeMany([two.id!])).toMatchObject({ removed: [two.id!], failed: [] });
    await expectGone(two.id!);
  });

  it('the sweep of an expired object drops its own entries only', async () => {
    const two = await forgedObject();
    await redis.raw.pExpire(`${sess()}:obj:${two.id!}`, 1);
    await redis.raw.zAdd(`${sess()}:exp`, { score: Date.now(), value: two.id! });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await FmSess.sweep()).toBe(1);
    await expectGone(two.id!);
  });

  it("repair() of an expired object's leftovers drops its own entries only", async () => {
    const two = await forgedObject();
    await redis.raw.del(`${sess()}:obj:${two.id!}`);
    await redis.raw.zRem(`${sess()}:exp`, two.id!);
    const repaired = await FmSess.repair();
    expect(repaired.left).toEqual([]);
    await expectGone(two.id!);
  });

  it('the removal of an object with dependents (remove.lua) drops its own entries only', async () => {
    const owner = await FmOwner.create({ name: 'o' });
    await FmPet.create({ kind: 'cat', ownerId: owner.id } as never);
    const other = await FmOwner.create({ name: 'p' });
    const kept = await FmPet.create({ kind: 'cat', ownerId: other.id } as never);
    const ownerBase = `${redis.prefix}:{fmowners}:FmOwner`;
    const petBase = `${redis.prefix}:{fmowners}:FmPet`;
    await redis.raw.hSet(`${ownerBase}:memo:${owner.id}`, {
      [`S${ownerBase}:idx:name:p`]: other.id,
      [`S${petBase}:idx:kind:cat`]: kept.id,
      [`S${otherString()}`]: owner.id,
    });
    await owner.remove();
    expect(await redis.raw.exists([`${ownerBase}:obj:${owner.id}`, `${ownerBase}:memo:${owner.id}`, `${ownerBase}:idx:name:o`])).toBe(0);
    expect(await redis.raw.sMembers(`${ownerBase}:idx:name:p`)).toEqual([other.id]);
    expect(await redis.raw.sMembers(`${petBase}:idx:kind:cat`)).toEqual([kept.id]);
    expect(await redis.raw.get(otherString())).toBe('junk');
    expect((await FmOwner.check()).violations).toEqual([]);
    expect((await FmPet.check()).violations).toEqual([]);
  });
});

import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../src';
import { checkIndexConsistency, expectIndexesConsistent, lexMember } from '../support/index-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * The consistency checker (tests/support/index-consistency.ts) is what the other index tests rely on, so it is
 * tested too: it passes on what redis-record writes, and it reports each kind of damage done by hand.
 */

@Model()
class CheckedItem extends BaseEntity {
  @Attr() @Index() color?: string;
  @Attr() @Index() size?: number;
  @Attr() @Index({ sortable: true }) label?: SortableString;
  @Attr() owner?: string;
  @Attr() @Index({ scope: 'owner' }) at?: Date;
  @Attr() @Index({ sortable: true, scope: 'owner' }) label2?: SortableString;
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Unique() code?: string;
}

@Model({ ttl: 60 })
class CheckedExpiring extends BaseEntity {
  @Attr() @Index() color?: string;
  @Attr() @Index() size?: number;
  @Attr() @Index({ sortable: true }) label?: SortableString;
  @Attr() @Unique() code?: string;
}

const redis = useTestRedis();
const base = () => `${redis.prefix}:{CheckedItem}`;
const violations = async () => (await checkIndexConsistency(CheckedItem, redis.raw, redis.prefix)).violations;

/** Damages the store, expects the checker to notice (matching `pattern`), then repairs it. */
async function expectDetected(damage: () => Promise<unknown>, pattern: RegExp, repair: () => Promise<unknown>) {
  await damage();
  const found = await violations();
  expect(found.some((violation) => pattern.test(violation))).toBe(true);
  await repair();
  expect(await violations()).toEqual([]);
}

let ids: string[] = [];

beforeAll(async () => {
  const a = await CheckedItem.create({
    color: 'red',
    size: 3,
    label: 'a\0b',
    owner: 'u1',
    at: new Date(5),
    label2: 'x',
    email: 'Ann@X.io',
    code: 'c1',
  });
  const b = await CheckedItem.create({ color: 'red', size: -1.5, label: '😀', owner: 'u2', email: 'bob@x.io' });
  const c = await CheckedItem.create({}); // everything absent: only in the unscoped sorted indexes and nil:color
  ids = [a.id, b.id, c.id];
});

describe('the consistency checker', () => {
  it('passes on what redis-record writes, and says what it looked at', async () => {
    const report = await expectIndexesConsistent(CheckedItem, redis.raw, redis.prefix);
    expect(report.objects).toBe(3);
    // color:red, nil:color, size, label, at@u1, label2@u1, label2@u2, at@u2 (absent at), uniq:email, uniq:code
    expect(report.indexKeys).toBe(10);
    expect(report.entries).toBeGreaterThan(10);
  });

  it('builds lex members as indexes.lua does', () => {
    expect(lexMember('a\0b', '12')).toEqual(Buffer.from([0x61, 0, 1, 0x62, 0, 0, 2, 0x31, 0x32]));
    expect(lexMember(undefined, '7')).toEqual(Buffer.from([0xff, 0, 0, 1, 0x37]));
  });

  it('reports an entry pointing to a dead object', async () => {
    const key = `${base()}:idx:color:red`;
    await expectDetected(
      () => redis.raw.sAdd(key, '999'),
      /idx:color:red: unexpected id 999/,
      () => redis.raw.sRem(key, '999'),
    );
  });

  it('reports an entry whose value no longer matches the object', async () => {
    const stale = `${base()}:idx:color:blue`;
    await expectDetected(
      () => redis.raw.sAdd(stale, ids[0]),
      /idx:color:blue: a set no live object needs/,
      () => redis.raw.del(stale),
    );
  });

  it('reports a missing set entry', async () => {
    const key = `${base()}:idx:color:red`;
    await expectDetected(
      () => redis.raw.sRem(key, ids[1]),
      new RegExp(`missing id ${ids[1]}`),
      () => redis.raw.sAdd(key, ids[1]),
    );
  });

  it('reports a wrong score, and an absent value not scored +inf', async () => {
    const key = `${base()}:idx:size`;
    await expectDetected(
      () => redis.raw.zAdd(key, { score: 4, value: ids[0] }),
      /scored 4, its value is 3/,
      () => redis.raw.zAdd(key, { score: 3, value: ids[0] }),
    );
    await expectDetected(
      () => redis.raw.zAdd(key, { score: 0, value: ids[2] }),
      /scored 0, its value is Infinity/,
      () => redis.raw.zAdd(key, { score: Infinity, value: ids[2] }),
    );
  });

  it('reports a lex member that is not byte for byte the expected one', async () => {
    const key = `${base()}:lex:label`;
    const right = lexMember('a\0b', ids[0]);
    const wrong = Buffer.concat([Buffer.from('a\0b\0\0'), Buffer.from([ids[0].length]), Buffer.from(ids[0])]); // \0 not escaped
    await expectDetected(
      async () => {
        await redis.raw.zRem(key, right as never);
        await redis.raw.zAdd(key, { score: 0, value: wrong as never });
      },
      /lex:label: (unexpected|missing) member/,
      async () => {
        await redis.raw.zRem(key, wrong as never);
        await redis.raw.zAdd(key, { score: 0, value: right as never });
      },
    );
  });

  it('reports an object left in a scoped index of its old scope value', async () => {
    const old = `${base()}:idx:at@owner:u9`;
    await expectDetected(
      () => redis.raw.zAdd(old, { score: 5, value: ids[0] }),
      /at@owner:u9: a zset no live object needs/,
      () => redis.raw.del(old),
    );
  });

  it('reports an object without a scope value found in a scoped index', async () => {
    const key = `${base()}:idx:at@owner:u1`;
    await expectDetected(
      () => redis.raw.zAdd(key, { score: Infinity, value: ids[2] }),
      new RegExp(`unexpected id ${ids[2]}`),
      () => redis.raw.zRem(key, ids[2]),
    );
  });

  it('reports a unique value owned by a dead object, or by the wrong one, or not recorded', async () => {
    const key = `${base()}:uniq:email`;
    await expectDetected(
      () => redis.raw.hSet(key, 'gone@x.io', '999'),
      /no live object holds it/,
      () => redis.raw.hDel(key, 'gone@x.io'),
    );
    await expectDetected(
      () => redis.raw.hSet(key, 'bob@x.io', ids[0]),
      /but \d+ holds it/,
      () => redis.raw.hSet(key, 'bob@x.io', ids[1]),
    );
    await expectDetected(
      () => redis.raw.hDel(key, 'ann@x.io'),
      /missing "ann@x.io"/,
      () => redis.raw.hSet(key, 'ann@x.io', ids[0]),
    );
  });

  it('reports a case-folded field that does not match the value', async () => {
    const object = `${base()}:obj:${ids[0]}`;
    await expectDetected(
      () => redis.raw.hSet(object, '#ci:email', 'ANN@X.IO'),
      /#ci:email is "ANN@X.IO"/,
      () => redis.raw.hSet(object, '#ci:email', 'ann@x.io'),
    );
  });

  it('reports two live objects holding one unique value', async () => {
    const object = `${base()}:obj:${ids[1]}`;
    await expectDetected(
      () => redis.raw.hSet(object, 'code', 'c1'),
      /held by both/,
      () => redis.raw.hDel(object, 'code'),
    );
  });

  it('reports a key of the wrong type, a temporary key and a hash outside all', async () => {
    const key = `${base()}:idx:color:red`;
    const members = await redis.raw.sMembers(key);
    await expectDetected(
      async () => {
        await redis.raw.del(key);
        await redis.raw.zAdd(
          key,
          members.map((value) => ({ score: 0, value })),
        );
      },
      /a zset, expected a set/,
      async () => {
        await redis.raw.del(key);
        await redis.raw.sAdd(key, members);
      },
    );
    await expectDetected(
      () => redis.raw.set(`${base()}:tmp:1`, 'x'),
      /unexpected key/,
      () => redis.raw.del(`${base()}:tmp:1`),
    );
    await expectDetected(
      () => redis.raw.hSet(`${base()}:obj:777`, '#id', '777'),
      /hash of 777 is not in all/,
      () => redis.raw.del(`${base()}:obj:777`),
    );
  });

  it('tolerates the entries of an expired object until it is swept, and checks memos', async () => {
    const item = await CheckedExpiring.create({ color: 'red', size: 2, label: 'a', code: 'k1' });
    const other = await CheckedExpiring.create({ color: 'red', size: 1, label: 'b', code: 'k2' });
    expect((await expectIndexesConsistent(CheckedExpiring, redis.raw, redis.prefix)).objects).toBe(2);
    const memo = `${redis.prefix}:{CheckedExpiring}:memo:${item.id}`;
    const field = `S${redis.prefix}:{CheckedExpiring}:idx:color:red`;
    expect(await redis.raw.hGet(memo, field)).toBe(item.id);
    await redis.raw.hDel(memo, field);
    const report = await checkIndexConsistency(CheckedExpiring, redis.raw, redis.prefix);
    expect(report.violations.join('\n')).toMatch(/memo of \d+ lacks/);
    await redis.raw.hSet(memo, field, item.id);

    // the model's ttl is long so that nothing expires while the memo is checked; both now expire at once
    await item.expire(0.05);
    await other.expire(0.05);
    await new Promise((resolve) => setTimeout(resolve, 200)); // both hashes have expired, not swept yet
    const expired = await checkIndexConsistency(CheckedExpiring, redis.raw, redis.prefix);
    expect(expired).toMatchObject({ violations: [], objects: 0 });
    expect(expired.indexKeys).toBeGreaterThan(0);
    expect(await CheckedExpiring.count({ color: 'red' })).toBe(0); // queries sweep first
    expect(await checkIndexConsistency(CheckedExpiring, redis.raw, redis.prefix)).toMatchObject({
      violations: [],
      objects: 0,
      indexKeys: 0,
    });
  });
});

import type * as Library from '../../src';
import { useOwnPrefixes } from '../support/test-redis';

/**
 * check() and repair() of a cap per value: its groups are the scoped index of `by` per `per`, whose missing and
 * stale entries they find and fix, and a group holding more than `keep` (here a smaller keep deployed over data
 * written with a larger one) is `overCap`, trimmed by repair() as a write trims it. Each deployment lives in its
 * own module registry (jest.isolateModules), with its own connection.
 */

const { raw, freshPrefix } = useOwnPrefixes('cappercheck');
const libraries: Array<typeof Library> = [];

afterAll(async () => {
  for (const lib of libraries) await lib.disconnect();
});

/** The model `CcLogin` capped at `keep` per user, connected under `prefix` in a registry of its own. */
async function deploy(keep: number, prefix: string) {
  let lib!: typeof Library;
  let model!: ReturnType<typeof define>;
  function define(l: typeof Library) {
    const { Attr, BaseEntity, Index, Model, Unique } = l;
    @Model({ name: 'CcLogin', cap: { by: 'at', keep, per: 'userId' } })
    class CcLogin extends BaseEntity {
      @Attr() userId?: string;
      @Attr() @Index({ scope: 'userId' }) at?: number;
      @Attr() @Unique() token?: string;
    }
    return CcLogin;
  }
  jest.isolateModules(() => {
    lib = require('../../src') as typeof Library;
    model = define(lib);
  });
  libraries.push(lib);
  await lib.connect({ url: process.env.REDIS_URL, prefix, onSchemaChange: () => undefined });
  return { lib, CcLogin: model };
}

const kinds = (report: Library.CheckResult) => report.violations.map((violation) => [violation.kind, violation.key]);

describe('check() and repair() of a cap per value', () => {
  it('find a group over a smaller keep, and trim it as a write would', async () => {
    const prefix = freshPrefix();
    const before = await deploy(5, prefix);
    for (const userId of ['ann', 'bob', 'cid']) {
      for (let at = 1; at <= (userId === 'cid' ? 2 : 5); at++) await before.CcLogin.create({ userId, at, token: `${userId}${at}` });
    }
    await before.lib.disconnect();
    const after = await deploy(3, prefix);
    const group = (userId: string) => `${prefix}:{CcLogin}:idx:at@userId:${userId}`;
    const report = await after.CcLogin.check();
    expect(kinds(report)).toEqual(
      expect.arrayContaining([
        ['overCap', group('ann')],
        ['overCap', group('bob')],
      ]),
    );
    expect(report.violations).toHaveLength(2);
    expect(report.violations[0].detail).toContain('where the cap keeps 3 of each value of userId');
    const repaired = await after.CcLogin.repair();
    expect(repaired.left).toEqual([]);
    expect(repaired.fixed.sort()).toEqual([
      `${group('ann')}: trimmed to the cap, 2 objects evicted`,
      `${group('bob')}: trimmed to the cap, 2 objects evicted`,
    ]);
    for (const userId of ['ann', 'bob']) {
      const kept = await after.CcLogin.findBy({ userId }, { orderBy: { at: 'desc' } });
      expect(kept.map((login) => login.at)).toEqual([5, 4, 3]);
    }
    expect(await after.CcLogin.count()).toBe(8);
    // the evicted objects went whole: their unique values are free
    expect(await raw.hKeys(`${prefix}:{CcLogin}:uniq:token`)).toHaveLength(8);
    expect((await after.CcLogin.check()).ok).toBe(true);
  });

  it('find a missing and a stale entry of a group, and repair them', async () => {
    const prefix = freshPrefix();
    const { CcLogin } = await deploy(3, prefix);
    const one = await CcLogin.create({ userId: 'dan', at: 1 });
    const two = await CcLogin.create({ userId: 'dan', at: 2 });
    const group = `${prefix}:{CcLogin}:idx:at@userId:dan`;
    await raw.zRem(group, one.id);
    await raw.zAdd(`${prefix}:{CcLogin}:idx:at@userId:eve`, { score: 2, value: two.id });
    const report = await CcLogin.check();
    expect(report.violations.map((violation) => violation.kind).sort()).toEqual(['missingEntry', 'wrongEntry']);
    await CcLogin.repair();
    expect(await raw.zRangeWithScores(group, 0, -1)).toEqual([
      { value: one.id, score: 1 },
      { value: two.id, score: 2 },
    ]);
    expect(await raw.exists(`${prefix}:{CcLogin}:idx:at@userId:eve`)).toBe(0);
    expect((await CcLogin.check()).ok).toBe(true);
  });
});

import type * as Library from '../../src';
import type * as ChangeModels from './support/schema-change-models';
import type * as IndexConsistency from '../support/index-consistency';
import { useOwnPrefixes } from '../support/test-redis';

/**
 * A model changed while it holds data: a cap or a ttl added, a unique index added over duplicates, an index
 * dropped from an expirable model. The data is written by the version before the change, then the version after
 * it connects to the same prefix. Each version lives in its own module registry (jest.isolateModules), like two
 * deployments of an application, each with its connection.
 */

type Version = keyof typeof ChangeModels.versions;
type Deployment = { lib: typeof Library; consistency: typeof IndexConsistency; Model: any };

const deployments: Deployment[] = [];
const { raw, freshPrefix } = useOwnPrefixes('change');

async function deploy(version: Version, prefix: string): Promise<Deployment> {
  let deployment!: Deployment;
  jest.isolateModules(() => {
    const lib = require('../../src') as typeof Library;
    const { versions } = require('./support/schema-change-models') as typeof ChangeModels;
    const Model = versions[version]();
    // The test-side checker too, so that it reads this registry's model definitions.
    const consistency = require('../support/index-consistency') as typeof IndexConsistency;
    deployment = { lib, consistency, Model };
  });
  deployments.push(deployment);
  await deployment.lib.connect({ url: process.env.REDIS_URL, prefix, onSchemaChange: () => undefined });
  return deployment;
}

afterAll(async () => {
  for (const { lib } of deployments) await lib.disconnect();
});

const kinds = (report: Library.CheckResult) => report.violations.map((v) => v.kind);

describe('reindex() after a unique index is added over data holding duplicates', () => {
  it('keeps each value for the object written first (300 objects, past the size where ZSCAN order is not id order)', async () => {
    const prefix = freshPrefix();
    const before = await deploy('uniqueBefore', prefix);
    // objects k and k + 150 share a value: k was written first
    await before.Model.saveMany(Array.from({ length: 300 }, (_, i) => before.Model.build({ code: `v${(i % 150) + 1}` })));
    await before.lib.disconnect();

    const after = await deploy('uniqueAfter', prefix);
    const result = await after.Model.reindex();
    expect(result).toMatchObject({ added: ['unique:code'], objects: 300 });
    const owners = await raw.hGetAll(`${prefix}:{ChangeUnique}:uniq:code`);
    expect(Object.keys(owners)).toHaveLength(150);
    expect(Object.entries(owners).filter(([value, id]) => value !== `v${id}`)).toEqual([]);
    const report = await after.Model.check();
    expect(report.violations).toHaveLength(150);
    expect(new Set(kinds(report))).toEqual(new Set(['duplicateUnique']));
  });

  it('with uuids, keeps each value for the object first in id order', async () => {
    const prefix = freshPrefix();
    const before = await deploy('uuidUniqueBefore', prefix);
    const objects = Array.from({ length: 300 }, (_, i) => before.Model.build({ code: `v${i % 150}` }));
    await before.Model.saveMany(objects);
    await before.lib.disconnect();

    const after = await deploy('uuidUniqueAfter', prefix);
    expect((await after.Model.reindex()).objects).toBe(300);
    const first = new Map<string, string>();
    for (const { id, code } of objects as Array<{ id: string; code: string }>) {
      const held = first.get(code);
      if (held === undefined || Buffer.compare(Buffer.from(id), Buffer.from(held)) < 0) first.set(code, id);
    }
    expect(await raw.hGetAll(`${prefix}:{ChangeUuidUnique}:uniq:code`)).toEqual(Object.fromEntries(first));
  });
});

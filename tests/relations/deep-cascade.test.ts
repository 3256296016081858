import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, RelationError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { keysUnder, RawClient, useTestRedis } from '../support/test-redis';

/**
 * A cascade far deeper than Lua's own stack (some 16,000 levels of recursion): a chain of 25,000 objects, each
 * the parent of the next, with a nullify dependent listed before the cascade and a restrict dependent at the
 * bottom. The check and the removal walk the tree with a stack of their own, so a refused remove writes nothing
 * at any depth, and an allowed one removes the whole chain.
 */

@Model({ group: 'dc' })
class DcNode extends BaseEntity {
  @BelongsTo(() => DcNode) parent!: BelongsTo<DcNode>;
  parentId?: string;
  @Attr() @Index() depth!: number;
  // listed first: its nullify is the first write of the removal of each node
  @HasMany(() => DcTag, { inverse: 'node', onDelete: 'nullify' }) tags!: HasMany<DcTag>;
  @HasMany(() => DcNode, { inverse: 'parent', onDelete: 'cascade' }) children!: HasMany<DcNode>;
  @HasMany(() => DcPin, { inverse: 'node' }) pins!: HasMany<DcPin>; // onDelete 'restrict' (default)
}

@Model({ group: 'dc' })
class DcTag extends BaseEntity {
  @BelongsTo(() => DcNode) node!: BelongsTo<DcNode>;
  nodeId?: string;
  @Attr() label!: string;
  @Attr() @Index({ scope: 'nodeId' }) rank!: number; // an index scoped by the foreign key moves with it
}

@Model({ group: 'dc' })
class DcPin extends BaseEntity {
  @BelongsTo(() => DcNode) node!: BelongsTo<DcNode>;
  @Attr() label!: string;
}

const MODELS = [DcNode, DcTag, DcPin];
const DEPTH = 25_000;
// its removals hold Redis for a second or more: a server of its own, so no other test file waits on them
const redis = useTestRedis({ ownServer: true });

/** A chain of `DEPTH` nodes, node i the parent of node i + 1; returns them in order, the root first. */
async function chain(): Promise<DcNode[]> {
  const nodes = Array.from({ length: DEPTH }, (_, depth) => DcNode.build({ depth }));
  expect((await DcNode.saveMany(nodes)).failed).toEqual([]);
  for (let i = 1; i < DEPTH; i++) nodes[i].parent.set(nodes[i - 1]);
  expect((await DcNode.saveMany(nodes.slice(1))).failed).toEqual([]);
  return nodes;
}

/** Every key under the prefix with its contents, read with the commands pipelined (tens of thousands of keys). */
async function contents(raw: RawClient, prefix: string): Promise<Record<string, unknown>> {
  const keys = await keysUnder(raw, prefix);
  const types = await Promise.all(keys.map((key) => raw.type(key)));
  const values = await Promise.all(
    keys.map((key, i) => {
      if (types[i] === 'hash') return raw.hGetAll(key).then((hash) => Object.entries(hash).sort());
      if (types[i] === 'set') return raw.sMembers(key).then((members) => members.sort());
      if (types[i] === 'zset') return raw.zRangeWithScores(key, 0, -1);
      if (types[i] === 'string') return raw.get(key);
      return types[i];
    }),
  );
  return Object.fromEntries(keys.map((key, i) => [key, { [types[i]]: values[i] }]));
}

afterEach(async () => {
  for (const model of MODELS) await expectIndexesConsistent(model, redis.raw, redis.prefix);
  await expectRelationsConsistent(MODELS, redis.raw, redis.prefix);
});

describe(`a cascade ${DEPTH.toLocaleString('en-US')} levels deep`, () => {
  it('is refused by a restrict rule at the bottom, writing nothing; then removed whole by remove()', async () => {
    const nodes = await chain();
    const [root, bottom] = [nodes[0], nodes[DEPTH - 1]];
    const rootTag = await root.tags.create({ label: 'top', rank: 1 });
    const bottomTag = await bottom.tags.create({ label: 'bottom', rank: 2 });
    const pin = await bottom.pins.create({ label: 'pinned' });

    const before = await contents(redis.raw, redis.prefix);
    await expect(root.remove()).rejects.toThrow(RelationError);
    await expect(root.remove()).rejects.toThrow(/DcPin objects still belong to it through nodeId/);
    await expect(nodes[DEPTH / 2].remove()).rejects.toThrow(RelationError);
    expect(await contents(redis.raw, redis.prefix)).toEqual(before);
    expect(root.id).toBeDefined();

    await pin.remove();
    await root.remove();
    expect(await DcNode.count()).toBe(0);
    expect(await DcNode.findIds({ depth: { gte: 0 } })).toEqual([]);
    for (const tag of [rootTag, bottomTag]) {
      const stored = await DcTag.findOrFail(tag.id!);
      expect(stored.nodeId).toBeUndefined();
      expect(await DcTag.findIds({ nodeId: tag.nodeId!, rank: tag.rank })).toEqual([]);
    }
    await DcTag.removeMany([rootTag.id!, bottomTag.id!]);
  });

  it('is removed whole by removeMany, beside a refused chain that stays', async () => {
    const nodes = await chain();
    const pinned = await DcNode.create({ depth: -1 });
    const child = DcNode.build({ depth: -2 });
    child.parent.set(pinned);
    await child.save();
    const pin = await child.pins.create({ label: 'keeps it' });

    const result = await DcNode.removeMany([pinned.id!, nodes[0].id!]);
    expect(result.failed.map((failure) => [failure.index, failure.error.constructor])).toEqual([[0, RelationError]]);
    expect(await DcNode.findIds()).toEqual([pinned.id, child.id]);
    await pin.remove();
    await DcNode.removeMany([pinned.id!]);
    expect(await DcNode.count()).toBe(0);
  });
});

import { AfterRemove, Attr, BaseEntity, BelongsTo, BeforeRemove, HasMany, Index, Model, WrongTypeError } from '../../src';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * removeMany of a model with BeforeRemove/AfterRemove hooks, which loads each chunk's objects first: it tells
 * an object key of another type from a missing object, and it removes as remove() of each id in the given
 * order would, also when removing one id takes others of the call with it (a cascade to the model itself).
 */

const log: string[] = [];

@Model()
class RhItem extends BaseEntity {
  @Attr() @Index() name!: string;
  @BeforeRemove before() {
    log.push(`before ${this.name}`);
  }
  @AfterRemove after() {
    log.push(`after ${this.name}`);
  }
}

/** A tree whose removal cascades through the model itself. */
@Model()
class RhNode extends BaseEntity {
  @Attr() name!: string;
  @BelongsTo(() => RhNode) parent!: BelongsTo<RhNode>;
  parentId?: string;
  @HasMany(() => RhNode, { inverse: 'parent', onDelete: 'cascade' }) children!: HasMany<RhNode>;
  @BeforeRemove before() {
    log.push(`before ${this.name}`);
  }
  @AfterRemove after() {
    log.push(`after ${this.name}`);
  }
}

/** The same tree with nullify: removing a parent changes its children, which BeforeRemove then sees. */
@Model()
class RhLink extends BaseEntity {
  @Attr() name!: string;
  @BelongsTo(() => RhLink) parent!: BelongsTo<RhLink>;
  parentId?: string;
  @HasMany(() => RhLink, { inverse: 'parent', onDelete: 'nullify' }) children!: HasMany<RhLink>;
  @BeforeRemove before() {
    log.push(`before ${this.name} of ${this.parentId ?? 'none'}`);
  }
}

const redis = useTestRedis();

beforeEach(() => void log.splice(0));

describe('an object key holding another type', () => {
  it('fails that id with WrongTypeError, removes nothing of it, and removes the others', async () => {
    const [a, b, c] = (await RhItem.saveMany([{ name: 'a' }, { name: 'b' }, { name: 'c' }])).saved;
    const damaged = `${redis.prefix}:{RhItem}:obj:${b.id}`;
    await redis.raw.del(damaged);
    await redis.raw.set(damaged, 'by hand');
    log.splice(0);
    const result = await RhItem.removeMany([a.id, b.id, c.id, '999999']);
    expect(result.removed).toEqual([a.id, c.id]);
    expect(result.missing).toEqual(['999999']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ id: b.id, index: 1, removed: false });
    expect(result.failed[0].error).toBeInstanceOf(WrongTypeError);
    expect(result.failed[0].error).toMatchObject({ key: damaged, expected: 'hash', found: 'string' });
    expect(log).toEqual(['before a', 'before c', 'after a', 'after c']);
    // as remove() of it would: the key and the id's `all` and index entries stay
    expect(await redis.raw.get(damaged)).toBe('by hand');
    expect(await redis.raw.zScore(`${redis.prefix}:{RhItem}:all`, b.id)).not.toBeNull();
    expect(await redis.raw.sIsMember(`${redis.prefix}:{RhItem}:idx:name:b`, b.id)).toBe(1);
    await redis.raw.del(damaged);
  });
});

describe('ids of which an earlier one removes others by cascade', () => {
  /** top -> mid -> leaf, and a node of its own. */
  async function tree(model: typeof RhNode | typeof RhLink) {
    const top = await model.create({ name: 'top' });
    const mid = await model.create({ name: 'mid', parentId: top.id });
    const leaf = await model.create({ name: 'leaf', parentId: mid.id });
    const other = await model.create({ name: 'other' });
    log.splice(0);
    return { top, mid, leaf, other };
  }

  it.each([undefined, 1, 2])(
    'top first: mid and leaf go with it and are missing, with no hooks of theirs (chunks of %s)',
    async (chunkSize) => {
      const { top, mid, leaf, other } = await tree(RhNode);
      const result = await RhNode.removeMany([top.id, mid.id, other.id, leaf.id], { chunkSize });
      expect(result.failed).toEqual([]);
      expect(result.removed).toEqual([top.id, other.id]);
      expect(result.missing).toEqual([mid.id, leaf.id]);
      // what remove() of each, in this order, would run: the objects the cascade took are not found
      expect(log).toEqual(['before top', 'before other', 'after top', 'after other']);
      expect(await RhNode.count()).toBe(0);
      await expectRelationsConsistent([RhNode], redis.raw, redis.prefix);
    },
  );

  it("in a tenant's scope", async () => {
    const Scoped = RhNode.scope('acme');
    const top = await Scoped.create({ name: 'top' });
    const mid = await Scoped.create({ name: 'mid', parentId: top.id });
    log.splice(0);
    const result = await Scoped.removeMany([top.id, mid.id]);
    expect(result.removed).toEqual([top.id]);
    expect(result.missing).toEqual([mid.id]);
    expect(log).toEqual(['before top', 'after top']);
  });

  it('leaf first: each is removed with its own hooks', async () => {
    const { top, mid, leaf, other } = await tree(RhNode);
    const result = await RhNode.removeMany([leaf.id, mid.id, top.id, other.id]);
    expect(result.removed).toEqual([leaf.id, mid.id, top.id, other.id]);
    expect(log).toEqual(['before leaf', 'before mid', 'before top', 'before other', 'after leaf', 'after mid', 'after top', 'after other']);
  });

  it('nullify: a child is loaded after its parent was removed, so BeforeRemove sees its foreign key cleared', async () => {
    const { top, mid } = await tree(RhLink);
    const result = await RhLink.removeMany([top.id, mid.id]);
    expect(result.removed).toEqual([top.id, mid.id]);
    expect(log).toEqual(['before top of none', 'before mid of none']);
    await expectRelationsConsistent([RhLink], redis.raw, redis.prefix);
  });
});

import { Attr, BaseEntity, BelongsTo, CrossSlotError, HasMany, Index, ManyToMany, Model } from '../../src';
import type { OrderedManyToMany } from '../../src';
import { expectRelationsConsistent } from '../support/relation-consistency';
import { clusterKeysUnder, useTestCluster } from '../support/test-cluster';

/**
 * Collections on a Redis Cluster: ordered lists, replace, findBy on the members and has-many replace run in one
 * slot when the models share a group (in tenants too, whose tags spread over the masters); across groups every
 * one of them is a CrossSlotError, with nothing written.
 */

@Model({ group: 'cc' })
class CcTag extends BaseEntity {
  @Attr() @Index() label!: string;
  @ManyToMany(() => CcPost, { inverse: 'tags' }) posts!: ManyToMany<CcPost>;
}

@Model({ group: 'cc' })
class CcPost extends BaseEntity {
  @Attr() title!: string;
  @ManyToMany(() => CcTag, { inverse: 'posts', ordered: true }) tags!: OrderedManyToMany<CcTag>;
  @HasMany(() => CcNote, { inverse: 'post', onDelete: 'cascade' }) notes!: HasMany<CcNote>;
}

@Model({ group: 'cc' })
class CcNote extends BaseEntity {
  @BelongsTo(() => CcPost) post!: BelongsTo<CcPost>;
  postId?: string;
  @Attr() text!: string;
}

// Not in one group: their keys are under different hash tags.
@Model()
class CcLooseList extends BaseEntity {
  @Attr() name?: string;
  @ManyToMany(() => CcLooseItem, { ordered: true }) items!: OrderedManyToMany<CcLooseItem>;
}

@Model()
class CcLooseItem extends BaseEntity {
  @Attr() @Index() label?: string;
}

const cluster = useTestCluster();

describe('collections within a group', () => {
  for (const tenant of [undefined, 'acme', 'globex']) {
    it(`keep lists, replace members and query them in one slot (${tenant ?? 'no tenant'})`, async () => {
      const [Post, Tag, Note] = tenant ? [CcPost.scope(tenant), CcTag.scope(tenant), CcNote.scope(tenant)] : [CcPost, CcTag, CcNote];
      const post = await Post.create({ title: 'p' });
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((label) => Tag.create({ label })));
      await post.tags.push(a, b);
      await post.tags.unshift(c);
      await post.tags.move(a, 2);
      expect((await post.tags.list()).map((t) => t.label)).toEqual(['c', 'b', 'a']);
      expect((await post.tags.findBy({ label: 'b' })).map((t) => t.label)).toEqual(['b']);
      expect((await post.tags.findBy()).map((t) => t.label)).toEqual(['c', 'b', 'a']);
      await post.tags.replace([a, c]);
      expect(await b.posts.count()).toBe(0);
      const [n1, n2] = await Promise.all(['x', 'y'].map((text) => post.notes.create({ text })));
      const other = await Post.create({ title: 'q' });
      await other.notes.replace([n2]);
      expect(await post.notes.findIds()).toEqual([n1.id]);
      await a.remove();
      expect(await post.tags.ids()).toEqual([c.id]);
      await expectRelationsConsistent([Post, Tag, Note], cluster.raw, cluster.prefix);
      for (const model of [Post, Tag, Note]) expect((await model.check()).violations).toEqual([]);
      await Promise.all([post.remove(), other.remove(), b.remove(), c.remove()]);
      expect(await Note.count()).toBe(0);
    });
  }
});

describe('collections across groups', () => {
  it('are refused with CrossSlotError, and nothing is written', async () => {
    const list = await CcLooseList.create({ name: 'l' });
    const item = await CcLooseItem.create({ label: 'i' });
    const before = await clusterKeysUnder(cluster.cluster, cluster.prefix);
    await expect(list.items.push(item)).rejects.toThrow(CrossSlotError);
    await expect(list.items.replace([item])).rejects.toThrow(CrossSlotError);
    await expect(list.items.replace([])).rejects.toThrow(CrossSlotError);
    await expect(list.items.findBy({ label: 'i' })).rejects.toThrow(/CcLooseList\.items\.findBy: the query reaches keys under hash tag/);
    expect(await clusterKeysUnder(cluster.cluster, cluster.prefix)).toEqual(before);
  });
});

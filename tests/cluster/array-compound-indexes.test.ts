import { Attr, BaseEntity, Index, Model } from '../../src';
import { useTestCluster } from '../support/test-cluster';

/**
 * Tag and compound indexes on a 3-master cluster: a model sharded 8 ways (queries run in every shard and merge,
 * in the compound index's order with its mixed directions) and a tenant scope; each result is compared with the
 * same filter and order computed over the objects written, and check() finds nothing wrong. Model.update's array
 * operators move the tag entries of objects spread over the shards.
 */

@Model({ shards: 8 })
@Index(['level', 'at'])
class SpreadEvent extends BaseEntity {
  @Attr({ type: 'json' }) @Index({ each: true }) labels?: string[];
  @Attr() level?: number;
  @Attr() at?: Date;
}

useTestCluster();

interface Row {
  id: string;
  labels: string[];
  level: number;
  at: Date;
}

async function fill(model: typeof SpreadEvent): Promise<Row[]> {
  const rows: Row[] = [];
  const items = Array.from({ length: 60 }, (_, i) => ({
    labels: [`l${i % 3}`, ...(i % 4 === 0 ? ['hot'] : [])],
    level: i % 5,
    at: new Date(Date.UTC(2024, 0, 1) + ((i * 7) % 13) * 60_000),
  }));
  const result = await model.saveMany(items.map((item) => model.build(item)));
  expect(result.failed).toEqual([]);
  result.saved.forEach((event, i) => rows.push({ id: event.id, ...items[i] }));
  return rows;
}

const byLevelDescAtAsc = (a: Row, b: Row) => b.level - a.level || a.at.getTime() - b.at.getTime() || Number(a.id) - Number(b.id);

describe('tag and compound indexes on a cluster', () => {
  it.each([
    ['a sharded model', () => SpreadEvent],
    ['a tenant of it', () => SpreadEvent.scope('acme')],
  ])('answer has, hasAny and compound orders in %s', async (_, modelOf) => {
    const model = modelOf();
    const rows = await fill(model);
    const ids = (list: Row[]) => list.map((row) => row.id);
    const sorted = (list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));
    expect(sorted(await model.findIds({ labels: { has: 'hot' } }))).toEqual(sorted(ids(rows.filter((r) => r.labels.includes('hot')))));
    expect(sorted(await model.findIds({ labels: { hasAny: ['l1', 'hot'] } }))).toEqual(
      sorted(ids(rows.filter((r) => r.labels.includes('l1') || r.labels.includes('hot')))),
    );
    const orderBy = [{ level: 'desc' }, { at: 'asc' }] as const;
    expect(await model.findIds(undefined, { orderBy, offset: 5, limit: 20 })).toEqual(ids([...rows].sort(byLevelDescAtAsc)).slice(5, 25));
    const from = new Date(Date.UTC(2024, 0, 1, 0, 5));
    expect(await model.findIds({ level: 2, at: { gte: from } }, { orderBy: { at: 'desc' } })).toEqual(
      ids(rows.filter((r) => r.level === 2 && r.at >= from).sort((a, b) => b.at.getTime() - a.at.getTime() || Number(b.id) - Number(a.id))),
    );
    const removed = (await model.findBy({ labels: { has: 'hot' } }, { limit: 3 })).map((event) => event.id);
    await model.removeMany(removed);
    expect(await model.count({ labels: { has: 'hot' } })).toBe(rows.filter((r) => r.labels.includes('hot')).length - 3);
    expect((await model.check()).violations).toEqual([]);
  });

  it.each([
    ['a sharded model', () => SpreadEvent],
    ['a tenant of it', () => SpreadEvent.scope('ops')],
  ])('move tag entries with push, pull and addToSet of Model.update in %s', async (_, modelOf) => {
    const model = modelOf();
    const events = await Promise.all(Array.from({ length: 6 }, (_, i) => model.create({ labels: [`x${i}`], level: i })));
    await Promise.all(events.map((event) => model.update(event.id, { labels: { push: ['new', 'new'] } })));
    await Promise.all(events.slice(0, 3).map((event) => model.update(event.id, { labels: { pull: 'new' } })));
    const added = await Promise.all(events.map((event) => model.update(event.id, { labels: { addToSet: ['new', 'set'] } })));
    expect(added.map((event) => event.labels)).toEqual(
      events.map((event, i) => (i < 3 ? [`x${i}`, 'new', 'set'] : [`x${i}`, 'new', 'new', 'set'])),
    );
    const sorted = (list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));
    expect(sorted(await model.findIds({ labels: { hasAll: ['new', 'set'] } }))).toEqual(sorted(events.map((event) => event.id)));
    expect(await model.findIds({ labels: { has: 'x4' } })).toEqual([events[4]!.id]);
    expect((await model.check()).violations).toEqual([]);
  });
});

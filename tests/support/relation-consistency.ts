import { descriptorOf } from '../../src/model/model-registry';
import { ModelDescriptor } from '../../src/model/model-descriptor';
import { scopedClass } from '../../src/model/tenant-scope';
import { RawClient } from './test-redis';

/**
 * Invariant 6 of docs/design (relations agree on both sides), checked against what is stored, from the key
 * layout of docs/relations.md rather than from the library's own key builders:
 *   - belongs-to:   every live object's foreign key (`authorId`) names a live object of the parent model (in the
 *                   same tenant); the foreign key's set index is checked by tests/support/index-consistency.ts;
 *   - many-to-many: `<base>:rel:<property>:<id>` holds the related ids; the other side holds this id in
 *                   `<otherBase>:rel:<inverse>:<relatedId>` (inverse declared) or
 *                   `<otherBase>:rev:<Model>.<property>:<relatedId>` (not declared). Every member of either set
 *                   must be in the matching set of the other side, and both objects must be live. An empty
 *                   set never exists in Redis, so "appears on both sides" is exact.
 * Pass the model classes (or their tenant scopes) to check; related models are found from their definitions.
 */

export interface RelationReport {
  readonly violations: string[];
  /** Foreign keys checked (objects with a parent). */
  readonly foreignKeys: number;
  /** Memberships seen (each counted once, from the declaring side). */
  readonly memberships: number;
}

function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

async function scan(raw: RawClient, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: pattern, COUNT: 1000 })) keys.push(...batch);
  return keys;
}

/** The target of a relation, in the tenant of `model` (the scope's class when the model is a tenant's). */
function related(model: ModelDescriptor, target: Function): ModelDescriptor {
  return descriptorOf(model.tenant === undefined ? target : scopedClass(target, model.tenant));
}

async function liveIds(raw: RawClient, model: ModelDescriptor, prefix: string): Promise<Set<string>> {
  const base = model.keys(prefix).base;
  const ids = await raw.zRange(`${base}:all`, 0, -1);
  const exists = await Promise.all(ids.map((id) => raw.exists(`${base}:obj:${id}`)));
  return new Set(ids.filter((_, i) => Number(exists[i]) === 1));
}

/** The members of a membership key: a set's, or an ordered list's (a zset, which must hold nothing else). */
async function members(raw: RawClient, key: string, ordered: boolean): Promise<string[]> {
  const type = await raw.type(key);
  if (type === 'none') return [];
  if (type !== (ordered ? 'zset' : 'set')) return [`<a ${type} at ${key}>`];
  return ordered ? raw.zRange(key, 0, -1) : raw.sMembers(key);
}

export async function checkRelations(modelClasses: readonly Function[], raw: RawClient, prefix: string): Promise<RelationReport> {
  const violations: string[] = [];
  const live = new Map<ModelDescriptor, Set<string>>();
  const liveOf = async (model: ModelDescriptor) => {
    let ids = live.get(model);
    if (!ids) live.set(model, (ids = await liveIds(raw, model, prefix)));
    return ids;
  };
  let foreignKeys = 0;
  let memberships = 0;

  for (const modelClass of modelClasses) {
    const model = descriptorOf(modelClass);
    const base = model.keys(prefix).base;
    const ids = [...(await liveOf(model))];
    for (const relation of model.relations) {
      if (relation.kind === 'belongsTo') {
        const parent = related(model, relation.target());
        const parents = await liveOf(parent);
        const values = await Promise.all(ids.map((id) => raw.hGet(`${base}:obj:${id}`, relation.foreignKey)));
        ids.forEach((id, i) => {
          const value = values[i];
          if (value === null || value === undefined) return;
          foreignKeys++;
          if (!parents.has(value)) violations.push(`${model.name} ${id}: ${relation.foreignKey} ${value} names no live ${parent.name}`);
        });
      } else if (relation.kind === 'manyToMany') {
        const other = related(model, relation.target());
        const otherBase = other.keys(prefix).base;
        const mine = `${base}:rel:${relation.property}:`;
        const theirs = relation.inverse ? `${otherBase}:rel:${relation.inverse}:` : `${otherBase}:rev:${model.name}.${relation.property}:`;
        const label = `${model.name}.${relation.property}`;
        const otherLive = await liveOf(other);
        const selfLive = await liveOf(model);
        // Each side's sets, every member checked against the other side.
        // an ordered side (`{ ordered: true }`) is a sorted set of positions, every other side a set
        const inverse = relation.inverse
          ? descriptorOf(relation.target()).relations.find((r) => r.property === relation.inverse)
          : undefined;
        const theirsOrdered = inverse?.kind === 'manyToMany' && inverse.ordered;
        for (const [from, to, fromLive, toLive, side, fromOrdered, toOrdered] of [
          [mine, theirs, selfLive, otherLive, 'owner', relation.ordered, theirsOrdered],
          [theirs, mine, otherLive, selfLive, 'related', theirsOrdered, relation.ordered],
        ] as const) {
          for (const key of await scan(raw, `${globEscape(from)}*`)) {
            const id = key.slice(from.length);
            if (!fromLive.has(id)) violations.push(`${label}: ${key} belongs to a dead ${side} object ${id}`);
            for (const member of await members(raw, key, fromOrdered)) {
              if (side === 'owner') memberships++;
              if (!toLive.has(member)) violations.push(`${label}: ${key} holds ${member}, which is not live`);
              if (!(await members(raw, to + member, toOrdered)).includes(id))
                violations.push(`${label}: ${key} holds ${member}, but ${to + member} lacks ${id}`);
            }
          }
        }
      }
    }
  }
  violations.sort();
  return { violations, foreignKeys, memberships };
}

/** Asserts invariant 6 for the models; returns the report. */
export async function expectRelationsConsistent(
  modelClasses: readonly Function[],
  raw: RawClient,
  prefix: string,
): Promise<RelationReport> {
  const report = await checkRelations(modelClasses, raw, prefix);
  expect(report.violations.slice(0, 30)).toEqual([]);
  return report;
}

/** Every key under `prefix:` with its type and full contents (sorted), to compare before and after an operation. */
export async function snapshotKeys(raw: RawClient, prefix: string): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {};
  const keys = (await scan(raw, `${globEscape(prefix)}:*`)).sort();
  for (const key of keys) {
    const type = await raw.type(key);
    if (type === 'hash') snapshot[key] = { hash: Object.entries(await raw.hGetAll(key)).sort() };
    else if (type === 'set') snapshot[key] = { set: (await raw.sMembers(key)).sort() };
    else if (type === 'zset') snapshot[key] = { zset: await raw.zRangeWithScores(key, 0, -1) };
    else if (type === 'string') snapshot[key] = { string: await raw.get(key) };
    else snapshot[key] = { type };
  }
  return snapshot;
}

import { RelationError } from '../errors/errors';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { RelationDescriptor } from '../model/relation-descriptor';
import { inverseOrdered, inverseSetPrefix } from '../model/relation-graph';
import { inSameTenant } from '../model/tenant-scope';

type ManyToManyRelation = Extract<RelationDescriptor, { kind: 'manyToMany' }>;

/** The keys of one owner's side of a many-to-many and of the related objects' sides, under a prefix. */
export interface MemberSides {
  readonly owner: ModelDescriptor;
  readonly target: ModelDescriptor;
  /** The owner's set (or ordered list) of related ids, and whether it is ordered. */
  readonly mine: string;
  readonly ordered: boolean;
  /** The prefix of a related object's side (its id appended), and whether those sides are ordered. */
  readonly otherPrefix: string;
  readonly otherOrdered: boolean;
}

/** The member sides of `relation` declared on `owner` (a tenant scope's model included) for the object `ownerId`. */
export function memberSides(owner: ModelDescriptor, relation: ManyToManyRelation, prefix: string, ownerId: string): MemberSides {
  return {
    owner,
    target: inSameTenant(owner, relation.target()),
    mine: `${owner.keys(prefix).base}:rel:${relation.property}:${ownerId}`,
    ordered: relation.ordered,
    otherPrefix: inverseSetPrefix(owner, relation, prefix),
    otherOrdered: inverseOrdered(owner, relation),
  };
}

/** The objects a change of members is about: their ids, hashes and sides, each id once (the first kept). */
export function placedMembers(sides: MemberSides, prefix: string, ids: readonly string[]) {
  const keys = sides.target.keys(prefix);
  return [...new Set(ids)].map((id) => ({ id, object: keys.object(id), side: sides.otherPrefix + id }));
}

/** The RelationError of a change refused because an object does not exist (the script wrote nothing). */
export function missingObject(
  name: string,
  sides: MemberSides,
  missing: { missing: 'self' } | { missing: 'other'; id: string },
): RelationError {
  if (missing.missing === 'self') return new RelationError(`${name}: the ${sides.owner.name} object does not exist`);
  return new RelationError(`${name}: the ${sides.target.name} object ${JSON.stringify(missing.id)} does not exist`);
}

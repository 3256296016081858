import { Connection } from '../redis/connection';
import { CrossSlotError } from '../errors/errors';
import { hashTagOf } from '../keys/hash-tag';
import type { ModelDescriptor } from '../model/model-descriptor';
import type { ParentChecks } from './outcomes';
import type { RemovalPlan } from './removal-program';

/**
 * Relations across hash tags on a Redis Cluster, refused before anything is sent.
 *
 * A relation check, a cascade, a nullify or a membership cleanup runs in the script of the write, which reads
 * and writes the related model's keys. On a cluster, Redis lets a script reach keys of another slot than its
 * declared keys' while that slot is on the same master, and stops it there (CROSSSLOT, "non local key")
 * once it is not: the same operation would work or fail by where the cluster put the two slots, and could
 * fail after writing part of its work (Redis keeps what a script wrote before an error). So on a
 * cluster, every such operation between models under different hash tags (not in one group) is a
 * CrossSlotError, whatever the slots, and nothing is sent. On one server there are no slots: they run.
 */

const HINT = 'which one script cannot touch on a Redis Cluster: give related models one group, @Model({ group })';

/** The message of a write setting `model`'s foreign key `property` whose parent model is under another tag. */
export function crossSlotParentMessage(
  model: ModelDescriptor,
  property: string,
  parent: { name: string; tag: string },
  tag: string,
): string {
  return `${model.name}.${property}: checking the parent reaches ${parent.name} under hash tag {${parent.tag}} from {${tag}}, ${HINT}`;
}

/**
 * Throws a CrossSlotError when a write sends (`fields`) a foreign key whose check parentChecks marked as
 * crossing slots (on a cluster only); returns otherwise. Before anything is sent.
 */
export function refuseCrossSlotParent(parents: ParentChecks, fields: { has(field: string): boolean }): void {
  for (const [field, , crossSlot] of parents) if (crossSlot !== undefined && fields.has(field)) throw new CrossSlotError(crossSlot);
}

/** The error of a removal whose plan reaches keys under another hash tag than the removed model's, on a cluster. */
export function crossSlotRemoval(plan: RemovalPlan, connection: Connection): CrossSlotError | undefined {
  if (plan.otherTag === undefined || !connection.transport.isCluster) return undefined;
  const model = plan.models[0];
  return new CrossSlotError(`${model.name}: removing an object reaches keys under hash tag {${plan.otherTag}} (its relations), ${HINT}`);
}

/**
 * The error of a query restricted to a many-to-many side (`memberKey`) whose model is under another hash tag
 * than the queried model's (`base`), on a cluster: query.lua reads the side from the queried model's slot.
 */
export function crossSlotMembers(name: string, memberKey: string, base: string, connection: Connection): CrossSlotError | undefined {
  const tag = hashTagOf(memberKey);
  if (tag === hashTagOf(base) || !connection.transport.isCluster) return undefined;
  return new CrossSlotError(`${name}.findBy: the query reaches keys under hash tag {${tag}} from {${hashTagOf(base)}}, ${HINT}`);
}

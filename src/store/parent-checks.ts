import { Connection } from '../redis/connection';
import { hashTagOf } from '../keys/hash-tag';
import type { ParentChecks } from './outcomes';
import type { ModelDescriptor } from '../model/model-descriptor';
import { crossSlotParentMessage } from './cross-slot';
import { inSameTenant } from '../model/tenant-scope';

const NONE: ParentChecks = [];

/**
 * For each @BelongsTo of the model: its foreign key and the parent model's object key prefix, under the
 * connection's prefix; on a Redis Cluster, a parent under another hash tag than the model's also carries the
 * message of the CrossSlotError a write setting that key gets (refuseCrossSlotParent).
 */
export function parentChecks(model: ModelDescriptor, connection: Connection): ParentChecks {
  if (model.relations.length === 0) return NONE;
  const { prefix } = connection;
  const tag = connection.transport.isCluster ? hashTagOf(model.keys(prefix).base) : undefined;
  const checks: Array<ParentChecks[number]> = [];
  for (const relation of model.relations) {
    if (relation.kind !== 'belongsTo') continue;
    const parent = inSameTenant(model, relation.target());
    const objectPrefix = parent.keys(prefix).objectPrefix;
    // on one server (no tag to compare) every check runs
    const parentTag = tag === undefined ? undefined : hashTagOf(objectPrefix);
    if (parentTag === tag) checks.push([relation.foreignKey, objectPrefix]);
    else
      checks.push([
        relation.foreignKey,
        objectPrefix,
        crossSlotParentMessage(model, relation.property, { name: parent.name, tag: parentTag! }, tag!),
      ]);
  }
  return checks;
}

import { activeConnection } from '../../redis/connection';
import { acknowledgingReplicas } from '../../redis/wait-replicas';
import type { ReplicaPolicy } from '../../model/replica-policy';
import { ReplicationError } from '../../errors/errors';
import { ModelKeys } from '../../keys/model-keys';
import { ModelDescriptor } from '../../model/model-descriptor';

/**
 * What save() and remove() do after their write with `waitReplicas`, for the writes of a bulk call: one
 * `WAIT` per key base the call wrote to (the model's, or each shard's of a sharded model), on the node holding
 * it, over the connection the writes went through. A WAIT covers everything that connection wrote before it,
 * so one per node answers for every object of the call. `written` maps each id written to its operation
 * ('create', 'save', 'remove'). Resolves to the ReplicationError of each written id
 * whose node fell short (none when `policy` is undefined or every node has enough replicas): the writes
 * stand, and the bulk call reports those items as written but failed, as save() rejects after its write.
 */
export async function bulkReplicaShortfalls(
  model: ModelDescriptor,
  written: ReadonlyMap<string, string>,
  policy: ReplicaPolicy | undefined,
): Promise<Map<string, ReplicationError>> {
  const shortfalls = new Map<string, ReplicationError>();
  if (!policy || written.size === 0) return shortfalls;
  const { transport, prefix } = activeConnection();
  // ModelKeys are made once per prefix and shard (ModelDescriptor.shardKeys), so they group by identity
  const byBase = new Map<ModelKeys, string[]>();
  for (const id of written.keys()) {
    const keys = model.keysOf(prefix, id);
    const group = byBase.get(keys);
    if (group) group.push(id);
    else byBase.set(keys, [id]);
  }
  await Promise.all(
    [...byBase].map(async ([keys, ids]) => {
      const acknowledged = await acknowledgingReplicas(transport, keys.all, policy);
      if (acknowledged >= policy.replicas) return;
      for (const id of ids) {
        shortfalls.set(id, new ReplicationError(model.name, id, written.get(id)!, policy.replicas, acknowledged, policy.timeoutMs));
      }
    }),
  );
  return shortfalls;
}

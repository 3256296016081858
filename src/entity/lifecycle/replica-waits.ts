import { activeConnection } from '../../redis/connection';
import { acknowledgingReplicas } from '../../redis/wait-replicas';
import type { ReplicaPolicy } from '../../model/replica-policy';
import { ReplicationError } from '../../errors/errors';
import { ModelKeys } from '../../keys/model-keys';
import { ModelDescriptor } from '../../model/model-descriptor';

/**
 * The replica wait of the save and remove lifecycle, after the writes of one call (save(), remove(), or a bulk
 * call): one `WAIT` per key base the call wrote to (the model's, or each shard's of a sharded model), on the
 * node holding it, over the connection the writes went through. A WAIT covers everything that connection wrote
 * before it, so one per node answers for every object of the call. `written` maps each id written to its
 * operation ('create', 'save', 'remove'). Resolves to the ReplicationError of each written id whose node fell
 * short (none when `policy` is undefined or every node has enough replicas): the writes stand, the after-hooks
 * still run, and the error is reported afterwards.
 */
export async function replicaShortfalls(
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

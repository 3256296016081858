import { ReplicationError } from '../errors/errors';
import type { ReplicaPolicy } from '../model/replica-policy';
import type { Transport } from './transport';

/**
 * After a write of `model` object `id`: WAIT on the node holding `key` (the object's slot on a cluster; the
 * client itself on one server), over the connection the write went through. ReplicationError when fewer
 * than `policy.replicas` acknowledged within the timeout.
 */
export async function awaitReplicas(
  transport: Transport,
  key: string,
  policy: ReplicaPolicy | undefined,
  what: { model: string; id: string; operation: string },
): Promise<void> {
  if (!policy) return;
  const acknowledged = await acknowledgingReplicas(transport, key, policy);
  if (acknowledged < policy.replicas) {
    throw new ReplicationError(what.model, what.id, what.operation, policy.replicas, acknowledged, policy.timeoutMs);
  }
}

/**
 * `WAIT policy.replicas policy.timeoutMs` on the node holding `key` (the client itself on one server), over the
 * connection the writes went through: how many replicas acknowledged everything it wrote so far.
 */
export function acknowledgingReplicas(transport: Transport, key: string, policy: ReplicaPolicy): Promise<number> {
  return transport.waitReplicas(key, policy.replicas, policy.timeoutMs);
}

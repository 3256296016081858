import { ReplicationError } from '../errors/errors';
import type { ReplicaPolicy } from '../model/replica-policy';
import { activeConnection } from './connection';
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

/** What replicaShortfall needs of a model: its name, its policy and where an object's keys are. */
export interface ReplicatedModel {
  readonly name: string;
  readonly replicas: ReplicaPolicy | undefined;
  keysOf(prefix: string, id: string): { object(id: string): string };
}

/**
 * After a write of object `id` on the current connection: WAITs as `policy` says on the object's node, and
 * returns the ReplicationError (rather than throwing it) so that the caller finishes what follows a write
 * that stands (the instance's state, after-hooks) before throwing it. Undefined when enough replicas have it.
 */
export async function replicaShortfall(
  model: ReplicatedModel,
  id: string,
  operation: string,
  policy: ReplicaPolicy | undefined,
): Promise<ReplicationError | undefined> {
  if (!policy) return undefined;
  const { transport, prefix } = activeConnection();
  try {
    await awaitReplicas(transport, model.keysOf(prefix, id).object(id), policy, { model: model.name, id, operation });
    return undefined;
  } catch (error) {
    if (error instanceof ReplicationError) return error;
    throw error;
  }
}

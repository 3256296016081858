import { ReplicationError } from '../errors/errors';
import type { ReplicaPolicy } from '../model/replica-policy';
import { activeConnection } from '../redis/connection';
import { isCluster, NodeCommands } from './topology';

/**
 * After a write of `model` object `id`: WAIT on the node holding `key` (the object's slot on a cluster; the
 * client itself on one server), over the connection the write went through. ReplicationError when fewer
 * than `policy.replicas` acknowledged within the timeout.
 */
export async function awaitReplicas(
  client: unknown,
  key: string,
  policy: ReplicaPolicy | undefined,
  what: { model: string; id: string; operation: string },
): Promise<void> {
  if (!policy) return;
  const acknowledged = await acknowledgingReplicas(client, key, policy);
  if (acknowledged < policy.replicas) {
    throw new ReplicationError(what.model, what.id, what.operation, policy.replicas, acknowledged, policy.timeoutMs);
  }
}

/**
 * `WAIT policy.replicas policy.timeoutMs` on the node holding `key` (the client itself on one server), over the
 * connection the writes went through: how many replicas acknowledged everything it wrote so far.
 */
export async function acknowledgingReplicas(client: unknown, key: string, policy: ReplicaPolicy): Promise<number> {
  const args = ['WAIT', String(policy.replicas), String(policy.timeoutMs)];
  if (isCluster(client)) {
    // The master's own client is the connection the cluster client sent the write on.
    const node = client.getNodeClientForKey ? await client.getNodeClientForKey(key, false) : undefined;
    return Number(node ? await (node as NodeCommands).sendCommand(args) : await client.sendCommand(key, false, args));
  }
  return Number(await (client as NodeCommands).sendCommand(args));
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
  const { client, prefix } = activeConnection();
  try {
    await awaitReplicas(client, model.keysOf(prefix, id).object(id), policy, { model: model.name, id, operation });
    return undefined;
  } catch (error) {
    if (error instanceof ReplicationError) return error;
    throw error;
  }
}

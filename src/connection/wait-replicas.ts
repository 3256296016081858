import { ArgumentError, ReplicationError, SchemaError } from '../errors/errors';
import { activeConnection } from './connection';
import { isCluster, NodeCommands } from './topology';

/**
 * Waiting for replicas after a write (docs/cluster.md#waitreplicas-and-failover): Redis replicates
 * asynchronously, so a write acknowledged by a master can be lost when that master dies before its replicas
 * have it and one of them is promoted. `WAIT n timeout`, sent on the connection that made the write, blocks
 * until n replicas have acknowledged everything that connection wrote (or the timeout passes), and answers
 * how many did. It does not make the write transactional: a write that reached fewer replicas stays applied.
 */
export interface ReplicaOptions {
  /** Replicas that must acknowledge each write before it resolves; 0 (the default) does not wait. */
  waitReplicas?: number;
  /** How long to wait for them, in ms (default 1000); then ReplicationError (the write itself stands). */
  waitTimeoutMs?: number;
}

/** A resolved policy: wait for `replicas` replicas, at most `timeoutMs`. */
export interface ReplicaPolicy {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 1000;

/** The policy of `options` (undefined when nothing is to be waited for); `fail` builds the error for bad values. */
function resolve(options: ReplicaOptions, fail: (message: string) => Error, base?: ReplicaPolicy): ReplicaPolicy | undefined {
  const replicas = options.waitReplicas ?? base?.replicas ?? 0;
  const timeoutMs = options.waitTimeoutMs ?? base?.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  if (!Number.isSafeInteger(replicas) || replicas < 0 || replicas > 100) {
    throw fail(`waitReplicas must be a whole number from 0 to 100 (got ${String(options.waitReplicas)})`);
  }
  // WAIT with timeout 0 blocks for ever: a bound is required.
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 3_600_000) {
    throw fail(`waitTimeoutMs must be a whole number of ms from 1 to 3600000 (got ${String(options.waitTimeoutMs)})`);
  }
  return replicas === 0 ? undefined : { replicas, timeoutMs };
}

/** A model's policy from `@Model({ waitReplicas, waitTimeoutMs })`; SchemaError naming the class when invalid. */
export function modelReplicaPolicy(owner: string, options: ReplicaOptions): ReplicaPolicy | undefined {
  return resolve(options, (message) => new SchemaError(`${owner}: ${message}`));
}

/** The policy of one operation: its own options over the model's; ArgumentError when invalid. */
export function operationReplicaPolicy(
  model: string,
  options: ReplicaOptions | undefined,
  base: ReplicaPolicy | undefined,
): ReplicaPolicy | undefined {
  if (!options || (options.waitReplicas === undefined && options.waitTimeoutMs === undefined)) return base;
  return resolve(options, (message) => new ArgumentError(`${model}: ${message}`), base);
}

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

import { ArgumentError, SchemaError } from '../errors/errors';

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

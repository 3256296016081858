import { describeValue } from '../util/describe-value';
import { ArgumentError } from '../errors/errors';
import { knownOptions } from '../errors/options-argument';
import { checkKeys } from './check-keys';
import { checkObjects } from './check-objects';
import { checkModelKeys } from './check-model-keys';
import { Findings } from './findings';
import { ModelScope, shardScopes } from './model-scope';
import { checkClaims, hasClaims } from './check-claims';
import { raw } from './raw-commands';
import { CheckResult, INTEGRITY_OPTIONS, IntegrityOptions } from './violations';

export const DEFAULT_BATCH_SIZE = 500;

export function batchSizeOf(options: IntegrityOptions | undefined): number {
  const size = knownOptions('check, repair and reindex', options, INTEGRITY_OPTIONS).batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(size) || size < 1) throw new ArgumentError(`batchSize must be a positive integer, got ${describeValue(size)}`);
  return size;
}

/**
 * Every violation of the invariants (docs/consistency.md) in one model scope, with how to fix each: the
 * objects' side (`all` in id order), then the keys' side (SCAN of the scope), then the sequence. Memory holds one
 * batch of objects or members at a time, plus the findings. Reads only: safe while the application writes,
 * though a write landing between two reads can show as a violation that is gone when checked again.
 */
export async function findViolations(scope: ModelScope, options: IntegrityOptions = {}): Promise<Findings> {
  const batchSize = batchSizeOf(options);
  const findings = new Findings(scope);
  // the rest reads `all`, `exp` and the sequence: one of another type is repaired first (check-model-keys.ts)
  if (!(await checkModelKeys(scope, findings))) return findings;
  const largestId = await checkObjects(scope, findings, batchSize);
  await checkKeys(scope, findings, batchSize);
  if (scope.definition.idStrategy === 'sequence' && largestId > 0) {
    // a shard's k-th id is (k - 1) * shards + shard + 1 (save.lua): its sequence must have reached k
    const shards = scope.keys.shard?.count ?? 1;
    const drawn = Math.floor((largestId - 1) / shards) + 1;
    const sequence = Number((await raw(scope.client).get(scope.keys.sequence)) ?? 0);
    if (!(sequence >= drawn)) {
      const detail = `${scope.keys.sequence}: the sequence is ${sequence}, the largest id ${largestId}${shards > 1 ? ` (draw ${drawn} of its shard)` : ''}`;
      findings.add('sequenceBehind', { key: scope.keys.sequence }, detail, { type: 'sequence', max: drawn });
    }
  }
  return findings;
}

/** The claims of a sharded model's unique values, across its shards (check-claims.ts). */
export async function findClaimViolations(scope: ModelScope, options: IntegrityOptions = {}): Promise<Findings> {
  const findings = new Findings(scope);
  await checkClaims(scope, findings, batchSizeOf(options));
  return findings;
}

/** Every violation in a model scope: each shard of a sharded model, and the claims across them. */
export async function checkScope(scope: ModelScope, options: IntegrityOptions = {}): Promise<CheckResult> {
  const parts: Findings[] = [];
  for (const part of shardScopes(scope)) parts.push(await findViolations(part, options)); // one batch in memory at a time
  if (hasClaims(scope)) parts.push(await findClaimViolations(scope, options));
  const violations = parts.flatMap((findings) => findings.list.map((f) => f.violation));
  return {
    ok: violations.length === 0,
    violations,
    objects: parts.reduce((sum, findings) => sum + findings.objects, 0),
    largestBatch: Math.max(...parts.map((findings) => findings.largestBatch)),
  };
}

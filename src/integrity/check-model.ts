import { checkKeys } from './check-keys';
import { checkObjects } from './check-objects';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { raw } from './raw-commands';
import { CheckResult, IntegrityOptions } from './violations';

export const DEFAULT_BATCH_SIZE = 500;

export function batchSizeOf(options: IntegrityOptions): number {
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`batchSize must be a positive integer, got ${size}`);
  return size;
}

/**
 * Every violation of the invariants (docs/consistency.md) in one model scope, with how to fix each: the
 * objects' side (ZSCAN of `all`), then the keys' side (SCAN of the scope), then the sequence. Memory holds one
 * batch of objects or members at a time, plus the findings. Reads only: safe while the application writes,
 * though a write landing between two reads can show as a violation that is gone when checked again.
 */
export async function findViolations(scope: ModelScope, options: IntegrityOptions = {}): Promise<Findings> {
  const batchSize = batchSizeOf(options);
  const findings = new Findings(scope);
  const largestId = await checkObjects(scope, findings, batchSize);
  await checkKeys(scope, findings, batchSize);
  if (scope.definition.idStrategy === 'sequence' && largestId > 0) {
    const sequence = Number((await raw(scope.client).get(scope.keys.sequence)) ?? 0);
    if (!(sequence >= largestId)) {
      findings.add('sequenceBehind', { key: scope.keys.sequence }, `the sequence is ${sequence}, the largest id ${largestId}`, { type: 'sequence', max: largestId });
    }
  }
  return findings;
}

export async function checkScope(scope: ModelScope, options: IntegrityOptions = {}): Promise<CheckResult> {
  const findings = await findViolations(scope, options);
  const violations = findings.list.map((f) => f.violation);
  return { ok: violations.length === 0, violations, objects: findings.objects, largestBatch: findings.largestBatch };
}

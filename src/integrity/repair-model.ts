import { applyFix } from './apply-fix';
import { findClaimViolations, findViolations } from './check-model';
import { hasClaims } from './check-claims';
import { Fix } from './findings';
import { ModelScope, shardScopes } from './model-scope';
import { IntegrityOptions, RepairResult, Violation } from './violations';

/** Objects first (they may make entries valid again), then entries, keys, relations, the sequence. */
const ORDER: Record<Fix['type'], number> = {
  object: 0,
  entries: 1,
  unlink: 2,
  foreignKey: 3,
  membership: 4,
  sequence: 5,
  releaseClaim: 6,
  claim: 7,
};

function fixKey(fix: Fix): string {
  switch (fix.type) {
    case 'object':
      return `object ${fix.id}`;
    case 'entries':
      return `entries ${fix.key} ${fix.members.join('\n')}`;
    case 'foreignKey':
      return `fk ${fix.id} ${fix.foreignKey}`;
    case 'membership':
      return `membership ${fix.ownerSet} ${fix.otherId}`;
    case 'unlink':
      return `unlink ${fix.key}`;
    case 'sequence':
      return 'sequence';
    case 'releaseClaim':
    case 'claim':
      return `${fix.type} ${fix.key}`;
  }
}

/**
 * Finds every violation (findViolations) and applies each fix as its own atomic script call, in ORDER. Each
 * script decides on what is stored when it runs, so a fix never undoes a write the application made after the
 * check: the worst a race can do is leave a violation for the next run. Violations without a fix (a unique
 * value two live objects hold, a key of unknown purpose) are returned in `left`.
 */
export async function repairScope(scope: ModelScope, options: IntegrityOptions = {}): Promise<RepairResult> {
  const found: Violation[] = [];
  const fixed: string[] = [];
  const left: Violation[] = [];
  // each shard of a sharded model on its own (a fix runs in its shard), then the claims across them
  for (const part of [...shardScopes(scope), ...(hasClaims(scope) ? ['claims' as const] : [])]) {
    const findings = part === 'claims' ? await findClaimViolations(scope, options) : await findViolations(part, options);
    const fixes = new Map<string, Fix>();
    for (const finding of findings.list) if (finding.fix) fixes.set(fixKey(finding.fix), finding.fix);
    for (const fix of [...fixes.values()].sort((a, b) => ORDER[a.type] - ORDER[b.type])) {
      fixed.push(await applyFix(part === 'claims' ? scope : part, fix));
    }
    found.push(...findings.list.map((f) => f.violation));
    left.push(...findings.list.filter((f) => !f.fix).map((f) => f.violation));
  }
  return { found, fixed, left };
}

import { applyFix } from './apply-fix';
import { findClaimViolations, findViolations } from './check-model';
import { hasClaims } from './check-claims';
import { checkListed } from './check-objects';
import { Findings, Fix } from './findings';
import { ModelScope, shardScopes } from './model-scope';
import { IntegrityOptions, RepairResult, Violation } from './violations';

/**
 * Keys to delete first (an object's rebuild would write into an index key of the wrong type), then objects (they
 * may make entries valid again), then entries, relations, the sequence.
 */
const ORDER: Record<Fix['type'], number> = {
  unlink: -1,
  expiring: -1,
  object: 0,
  entries: 1,
  trim: 2,
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
    case 'trim':
      return `trim ${fix.key}`;
    case 'expiring':
      return 'expiring';
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
 * value two live objects hold, a key of unknown purpose) are returned in `left`, and so are those a fix left
 * (an object whose unique value another live object owns, or whose score-indexed value is no number): a check of
 * such an object after the fixes names them. Their lines are not in `fixed`.
 */
export async function repairScope(scope: ModelScope, options: IntegrityOptions = {}): Promise<RepairResult> {
  const found: Violation[] = [];
  const fixed: string[] = [];
  const left: Violation[] = [];
  // each shard of a sharded model on its own (a fix runs in its shard), then the claims across them
  const parts = [...shardScopes(scope), ...(hasClaims(scope) ? ['claims' as const] : [])];
  for (let at = 0; at < parts.length; at++) {
    const part = parts[at];
    const target = part === 'claims' ? scope : part;
    const findings = part === 'claims' ? await findClaimViolations(scope, options) : await findViolations(part, options);
    // `all`, `exp` or the sequence of another type: the check stopped there (check-model-keys.ts); once they are
    // deleted, the part is checked and repaired again, which rebuilds them from the objects
    if (part !== 'claims' && findings.list.some(({ fix }) => isModelKeyFix(target, fix))) parts.splice(at + 1, 0, part);
    const fixes = new Map<string, Fix>();
    for (const { fix } of findings.list) {
      if (!fix) continue;
      // an object's findings share one fix (its rebuild); the `#ci:` folds one of them names are kept, so that
      // a later finding of the object naming none (its memo's) does not rebuild it from the fields out of step
      const earlier = fixes.get(fixKey(fix));
      if (earlier?.type === 'object' && earlier.folds.length > 0) continue;
      fixes.set(fixKey(fix), fix);
    }
    const unchanged = new Set<string>();
    const recheck: string[] = [];
    for (const [key, fix] of [...fixes].sort(([, a], [, b]) => ORDER[a.type] - ORDER[b.type])) {
      const applied = await applyFix(target, fix);
      if (applied.left === undefined) fixed.push(applied.line);
      else if (applied.left === 'unchanged') unchanged.add(key);
      else if (fix.type === 'object') recheck.push(fix.id);
    }
    found.push(...findings.list.map((f) => f.violation));
    left.push(...findings.list.filter((f) => !f.fix || unchanged.has(fixKey(f.fix))).map((f) => f.violation));
    if (recheck.length > 0) {
      const again = new Findings(target);
      await checkListed(target, again, recheck);
      const named = new Set(left.map(violationKey));
      for (const { violation } of again.list) if (!named.has(violationKey(violation))) left.push(violation);
    }
  }
  return { found, fixed, left };
}

function isModelKeyFix(scope: ModelScope, fix: Fix | undefined): boolean {
  return (
    fix !== undefined &&
    (fix.type === 'expiring' || (fix.type === 'unlink' && (fix.key === scope.keys.all || fix.key === scope.keys.sequence)))
  );
}

const violationKey = (v: Violation) => `${v.kind} ${v.id} ${v.key} ${v.detail}`;

import { StoredIndex } from '../schema/stored-definition';
import { ModelScope } from './model-scope';
import { Violation, ViolationKind } from './violations';

/** How repair() fixes a violation; each is one atomic script call (src/integrity/apply-fix.ts). */
export type Fix =
  | { readonly type: 'object'; readonly id: string; readonly folds: ReadonlyArray<readonly [string, string, string]> }
  | { readonly type: 'entries'; readonly index: StoredIndex; readonly key: string; readonly members: readonly string[] }
  | { readonly type: 'sequence'; readonly max: number }
  | {
      readonly type: 'foreignKey';
      readonly id: string;
      readonly foreignKey: string;
      readonly parent: ModelScope;
      readonly parentId: string;
    }
  | {
      readonly type: 'membership';
      readonly owner: ModelScope;
      readonly ownerId: string;
      readonly ownerSet: string;
      readonly other: ModelScope;
      readonly otherId: string;
      readonly otherSet: string;
      /** Whether the owner's set, and whether the other's, is an ordered list (a sorted set of positions). */
      readonly ownerOrdered: boolean;
      readonly otherOrdered: boolean;
    }
  | { readonly type: 'unlink'; readonly key: string }
  | { readonly type: 'trim'; readonly key: string }
  | { readonly type: 'expiring' }
  | { readonly type: 'releaseClaim'; readonly key: string; readonly holder: string; readonly claim: string }
  | { readonly type: 'claim'; readonly key: string; readonly id: string; readonly replace: string };

export interface Finding {
  readonly violation: Violation;
  /** Absent when repair() cannot decide (two objects holding one unique value, a key of unknown purpose). */
  readonly fix?: Fix;
}

/** Collects findings of one model scope as the checker streams through it. */
export class Findings {
  readonly list: Finding[] = [];
  private readonly seen = new Set<string>();
  largestBatch = 0;
  objects = 0;

  constructor(private readonly scope: ModelScope) {}

  /** `same`: a finding both sides can report (an object and an index entry); only the first is kept. */
  add(kind: ViolationKind, where: { id?: string; key?: string }, detail: string, fix?: Fix, same?: string): void {
    if (same !== undefined) {
      if (this.seen.has(same)) return;
      this.seen.add(same);
    }
    const violation: Violation = { kind, model: this.scope.definition.name, ...where, detail };
    this.list.push(fix ? { violation, fix } : { violation });
  }

  held(count: number): void {
    this.largestBatch = Math.max(this.largestBatch, count);
  }
}

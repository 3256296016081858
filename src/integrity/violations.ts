/**
 * What check() reports, one kind per way an invariant of docs/consistency.md can be broken
 * (docs/operations.md explains each and what repair() does about it).
 */
export type ViolationKind =
  | 'orphanHash' // invariant 2: a hash whose id is not in `all`
  | 'missingHash' // invariant 1: an id in `all` without its hash, not an expired object awaiting its sweep; or no valid id
  | 'danglingEntry' // invariant 3: an index entry naming an object that does not exist
  | 'wrongEntry' // invariant 3: an index entry of a live object that does not match its value (or wrong score)
  | 'missingEntry' // invariant 3/4: an indexed value of a live object without its entry
  | 'uniqueOwner' // invariant 4: a unique value mapped to an object that does not hold it
  | 'duplicateUnique' // invariant 4: two live objects hold one unique value
  | 'sequenceBehind' // invariant 5: the sequence is below the largest id
  | 'danglingForeignKey' // invariant 6: a foreign key naming a parent that does not exist
  | 'oneSidedMembership' // invariant 6: a many-to-many membership on one side only, or with a missing end
  | 'staleClaim' // invariant 4, sharded models: a unique value's claim naming an object that does not hold it
  | 'unclaimedUnique' // invariant 4, sharded models: a live object's unique value without its claim
  | 'memoMismatch' // a memo (objects with a TTL or in a capped model) that disagrees with the object
  | 'overCap' // a capped model, or a group of a cap per value, holding more live objects than the cap keeps
  | 'wrongType' // a key of the layout (an object, memo, index key or membership set) holding another Redis type
  | 'unknownKey'; // a key under the model that no declared index or part of the layout explains

/** One broken invariant that `check()` found: its kind, the model, the object's id or the key, and a line saying what is wrong (docs/operations.md#violations). */
export interface Violation {
  /** Which invariant is broken, and how (see ViolationKind; docs/operations.md#violations). */
  readonly kind: ViolationKind;
  /** The name of the model checked. */
  readonly model: string;
  /** The object concerned (for a `uniqueOwner` or `staleClaim`, the one the entry or claim names); absent for a key alone (`unknownKey`, `sequenceBehind`). */
  readonly id?: string;
  /** The Redis key concerned (a hash, index key, memo, membership set or claim); absent when only an id is named (`missingHash`). */
  readonly key?: string;
  /** A line saying what is wrong, naming the key, id or value. */
  readonly detail: string;
}

/** What `Model.check()` resolves to (docs/operations.md#checking). */
export interface CheckResult {
  /** True when no violation was found (`violations` is empty). */
  readonly ok: boolean;
  /** Every violation found, in the order the check met them; empty when `ok`. */
  readonly violations: Violation[];
  /** Live objects checked. */
  readonly objects: number;
  /** The most objects held in memory at once (at most the batch size). */
  readonly largestBatch: number;
}

/** What repair() did: one line per fix applied, and what it left (violations it cannot decide). */
export interface RepairResult {
  /** Every violation the repair's check found, fixed or not. */
  readonly found: Violation[];
  /** One line per fix applied (`object 2: relisted`, `sequence raised to 9`). */
  readonly fixed: string[];
  /** Violations still there: those repair() cannot decide (`duplicateUnique`, say) and those a fix left; empty when all were fixed. */
  readonly left: Violation[];
}

/** The options of `check()`, `repair()` and `reindex()`. */
export interface IntegrityOptions {
  /** Objects (or index members) read per round trip; memory stays proportional to it. Default 500. */
  readonly batchSize?: number;
}

/** The option names of check(), repair() and reindex() (knownOptions refuses any other). */
export const INTEGRITY_OPTIONS = ['batchSize'] as const satisfies ReadonlyArray<keyof IntegrityOptions>;

import { Attr, BaseEntity, Counter, Index, Model, Unique, Version } from '../../../src';

/**
 * The models the concurrency tests under tests/expiry share with their worker processes. Every attribute
 * names its type, so the workers also run transpiled only (no reliable decorator type metadata).
 */

/** One counter that ten processes increment at once. */
@Model()
export class Tally extends BaseEntity {
  @Attr({ type: 'string' }) name?: string;
  @Counter() @Index() hits = 0;
}

/** Read-modify-write under optimistic locking. */
@Model()
export class Ledger extends BaseEntity {
  @Attr({ type: 'number' }) total = 0;
  @Attr({ type: 'string' }) tokens = '';
  @Version() version?: number;
}

/** Read-modify-write under withLock (no version: the lock alone must keep every update). */
@Model()
export class LockBox extends BaseEntity {
  @Attr({ type: 'number' }) total = 0;
  @Attr({ type: 'string' }) tokens = '';
}

export const CAP_KEEP = 25;

/** Capped by a plain attribute: the highest `CAP_KEEP` scores stay. */
@Model({ cap: { by: 'score', keep: CAP_KEEP } })
export class CapEntry extends BaseEntity {
  @Attr({ type: 'string' }) @Index() team?: string;
  @Attr({ type: 'number' }) @Index() score?: number;
  @Attr({ type: 'string' }) @Unique() tag?: string;
}

/** Capped by a counter, lowest first: the lowest `CAP_KEEP` points stay. */
@Model({ cap: { by: 'points', keep: CAP_KEEP, order: 'asc' } })
export class CapCounter extends BaseEntity {
  @Attr({ type: 'string' }) @Index() team?: string;
  @Counter() @Index() points = 0;
}

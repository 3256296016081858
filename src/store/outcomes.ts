/** What a save came to: the id, the object being gone (or the id taken), or a unique value held by another. */
export type SaveOutcome = { id: string } | { missing: true } | { uniqueTaken: string } | { stale: true } | { missingParent: string };

/**
 * Foreign key field -> the parent model's object key prefix: a value written to it must name a live parent.
 * A third element, on a Redis Cluster, is the message of the CrossSlotError a write setting that field gets
 * instead (its parent is under another hash tag: relations/cross-slot.ts); the stores never see such a check.
 */
export type ParentChecks = ReadonlyArray<readonly [field: string, objectPrefix: string, crossSlot?: string]>;

/**
 * How an object of a model is removed: `plain` when nothing but its hash and `all` entry exist (a MULTI),
 * `indexed` when only its index entries are beside them (remove-indexed.lua), `memo` when it may also keep a
 * memo of its entries (a ttl, a cap, `expirable`) but nothing depends on it (remove-memo.lua), else
 * remove.lua with the model table `args` (src/store/removal-program.ts). A `memo` removal carries the
 * table too: removeMany's remove-many.lua takes it.
 */
export type Removal =
  | { readonly kind: 'plain' }
  | { readonly kind: 'indexed' }
  | { readonly kind: 'memo'; readonly args: string[] }
  | { readonly kind: 'program'; readonly args: string[] };

/** What increment.lua did: the counter's new stored value, or why it wrote nothing. */
export type IncrementOutcome = { stored: string } | { gone: true } | { outOfRange: true } | { unreadable: string };

/** What a remove came to: whether the object existed, or the dependents that forbid it (onDelete 'restrict'). */
export type RemoveOutcome = { existed: boolean } | { restrictedBy: { model: number; foreignKey: string } };

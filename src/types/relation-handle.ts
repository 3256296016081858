/** Marks relation handles, so that attribute types leave them out. */
export declare const relationBrand: unique symbol;

/** What every relation handle (`BelongsTo`, `HasMany`, `ManyToMany`) is: a property that is not an attribute. */
export interface RelationHandle {
  /** @hidden */
  readonly [relationBrand]: true;
}

/**
 * The key of the method through which `include` gives a handle the parent it read. The package does not export
 * it, so the method is not part of the public BelongsTo<T>.
 */
export const preloadParent: unique symbol = Symbol('preloadParent');

/** The options of a many-to-many handle's `list()`: a page of the members, and `findMany`'s `chunkSize`. */
export interface ListOptions {
  /** Members skipped first (default 0), in the list's order (an ordered relation) or in id order. */
  offset?: number;
  /** At most this many members (default: all). */
  limit?: number;
  /** Ids read per transaction, as findMany takes it. */
  chunkSize?: number;
}

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

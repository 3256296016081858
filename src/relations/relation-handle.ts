import type { ModelDescriptor } from '../metadata/model-descriptor';

/** Marks relation handles, so that attribute types leave them out. */
export declare const relationBrand: unique symbol;

export interface RelationHandle {
  readonly [relationBrand]: true;
}

/** The owning entity's model and persisted id, read at call time (a new entity gets its id on save). */
export interface RelationOwner {
  readonly entity: object;
  readonly model: () => ModelDescriptor;
  readonly id: () => string | undefined;
}

import { RelationError } from '../errors/errors';
import type { ModelDescriptor } from '../model/model-descriptor';

export { relationBrand } from '../types/relation-handle';
export type { RelationHandle } from '../types/relation-handle';

/** The owning entity's model and persisted id, read at call time (a new entity gets its id on save). */
export interface RelationOwner {
  readonly entity: object;
  readonly model: () => ModelDescriptor;
  readonly id: () => string | undefined;
}

/**
 * The owner's id, for the handles whose keys or queries are built from it (has-many, many-to-many). An owner
 * not saved yet, or removed through this instance, has no id and so no relations: RelationError, the same
 * from every handle, thrown before anything is read or written.
 */
export function ownerIdOf(owner: RelationOwner): string {
  const id = owner.id();
  if (id === undefined) throw new RelationError(`${owner.model().name}: save the object before using its relations`);
  return id;
}

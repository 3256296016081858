import type { AttributeInput, EntityClass, Persisted } from '../types/entity-types';
import type { UpdateInput, UpdateOptions, UpsertOptions, UpsertResult } from '../types/write-types';
import type { StatefulEntity } from './entity-state';
import { QueryStatics } from './query-statics';
import { updateById } from './update-by-id';
import { upsertEntity } from './upsert-entity';

/**
 * The statics that write an object without a loaded instance: `Model.update` and `Model.upsert`. A base class of
 * BaseEntity (whose file stays small), over QueryStatics; each hands the call to its helper in one line.
 */
export abstract class ModelWrites extends QueryStatics {
  /**
   * Writes the given attributes of object `id` without loading it (one script; null removes an attribute) and
   * resolves with the object as stored. Validated; uniques, relations, `@Version` (a version given is the one
   * expected), caps and `ttl` as save() enforces them; no hook runs. NotFoundError when there is no such object.
   */
  static update<T extends StatefulEntity>(
    this: EntityClass<T>,
    id: string | number,
    attributes: UpdateInput<T>,
    options?: UpdateOptions,
  ): Promise<Persisted<T>> {
    return updateById(this, id, attributes, options);
  }

  /**
   * Updates the object holding the value of the `@Unique` attribute `on` with the given attributes, or creates
   * one with them, in one atomic script: upserts racing on one value make one object. `update: false` leaves an
   * existing object as it is. Resolves with `{ entity, created }`; no hook runs.
   */
  static upsert<T extends StatefulEntity>(
    this: EntityClass<T>,
    attributes: AttributeInput<T>,
    options: UpsertOptions<T>,
  ): Promise<UpsertResult<T>> {
    return upsertEntity(this, attributes, options);
  }
}

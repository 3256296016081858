import type { EntityClass } from '../types/entity-types';
import type { FacetName, FindPageOptions, Page, Where } from '../types/where-types';
import { StatefulEntity } from './entity-state';
import { onModel } from './model-call';
import { countBy, findPage } from './page-queries';

/**
 * BaseEntity's query statics beyond findBy: keyset pages and facets. A base class of BaseEntity (whose file
 * stays small); each hands the call to its helper in one line.
 */
export abstract class QueryStatics extends StatefulEntity {
  /**
   * One page of the matches after the object `after` names (the first page without it), in id order or by
   * `orderBy`, and `next`, the cursor of the page after it (null at the end). Pages are found by value and id,
   * not by offset: paging while others write never skips or repeats an object that stays matched with its value.
   */
  static findPage<T extends object>(this: EntityClass<T>, where: Where<T> | undefined, options: FindPageOptions<T>): Promise<Page<T>> {
    return onModel(this, () => findPage(this, where, options));
  }

  /** How many objects (matching `where`) hold each value of an indexed attribute: `{ value: count }`, counted in Redis. */
  static countBy<T extends object>(this: EntityClass<T>, attribute: FacetName<T>, where?: Where<T>): Promise<Record<string, number>> {
    return onModel(this, () => countBy(this, attribute, where));
  }
}

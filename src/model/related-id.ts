import { describeValue, withArticle } from '../util/describe-value';
import { ArgumentError, RelationError } from '../errors/errors';
import { normalizeId } from '../keys/id-format';
import type { ModelDescriptor } from './model-descriptor';
import { descriptorOf } from './model-registry';

/**
 * The id of the object given to a relation handle (`post.author.set(x)`, `user.tags.add(x)`): either an id,
 * checked as every id is (InvalidIdError), or an instance of the target model in the owner's tenant scope. The
 * instance's prototype must be the target's exactly, as saveMany requires of its entities: an object of another
 * model, or of the same model in another tenant, has an id too, and taking it would link the owner to whichever
 * target object happens to have that id. A plain `{ id }` is refused as well, since its id was never checked.
 * An instance without an id (not saved yet, or removed through that instance) names no object: RelationError.
 *
 * @param target the target model in the owner's tenant scope (inSameTenant)
 * @param relation the relation's name for messages (`Post.author`): called only when one is thrown, since
 *   set() and add() are frequent and finding the name takes a lookup
 */
export function relatedId(target: ModelDescriptor, value: unknown, relation: () => string): string {
  if (typeof value !== 'object' || value === null) return normalizeId(target.name, value);
  if (prototypeOf(value) !== target.ctor.prototype) {
    throw new ArgumentError(
      `${relation()}: expected ${withArticle(target.name)}${scopeOf(target)} or its id, got ${describeObject(value, target)}`,
    );
  }
  // a removed instance keeps its id, but names no object (BaseEntity.isRemoved)
  const { id, isRemoved } = value as { id?: string; isRemoved?: () => boolean };
  if (id === undefined || (typeof isRemoved === 'function' && isRemoved.call(value)))
    throw new RelationError(`${relation()}: the ${target.name} is not saved (or was removed)`);
  return id;
}

/**
 * A refused object, as describeValue names it; an instance of the target model from another tenant scope
 * also by its scope, since "expected a User, got a User" alone would not say what is wrong.
 */
function describeObject(value: object, target: ModelDescriptor): string {
  const model = modelOf(value);
  if (model === undefined || model.name !== target.name) return describeValue(value);
  return `${withArticle(model.name)}${scopeOf(model) || ' outside tenants'}`;
}

/** ` of tenant "acme"` for a tenant scope's model, nothing for a model outside tenants. */
function scopeOf(model: ModelDescriptor): string {
  return model.tenant === undefined ? '' : ` of tenant ${JSON.stringify(model.tenant)}`;
}

/** The model of an entity (or of its tenant scope); undefined for an object of any other class. */
function modelOf(value: object): ModelDescriptor | undefined {
  try {
    const ctor = (prototypeOf(value) as { constructor?: unknown } | null | undefined)?.constructor;
    return typeof ctor === 'function' ? descriptorOf(ctor) : undefined;
  } catch {
    return undefined; // a class that is not a model (Date, Map, ...), or a constructor that cannot be read
  }
}

/** The prototype, or undefined for a proxy whose getPrototypeOf throws: the value is then refused like any other. */
function prototypeOf(value: object): object | null | undefined {
  try {
    return Object.getPrototypeOf(value) as object | null;
  } catch {
    return undefined;
  }
}

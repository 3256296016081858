import { SchemaError } from '../errors/errors';
import { checkAttributeName } from '../model/attribute-name';
import { decoratorOptions } from '../model/decorator-options';
import { addPendingAttribute, addPendingIndex, addPendingRelation } from '../model/pending-metadata';
import { OnDelete } from '../model/relation-descriptor';
import { BelongsToHandle } from '../relations/belongs-to-handle';
import { HasManyHandle } from '../relations/has-many-handle';
import { ManyToManyHandle } from '../relations/many-to-many-handle';
import { OrderedManyToManyHandle } from '../relations/ordered-many-to-many-handle';
// registers what instances of models with relations get: their handles
import '../relations/install-relations';
import type { DeclaredExactly, ValueExactly } from './declared-exactly';
import { memberDecorator, refusedBareUse } from './member-decorator';

/** The type of a `@BelongsTo` property: `post.author.set(user)`, `post.author.id`, `await post.author.load()`. */
export type BelongsTo<T> = BelongsToHandle<T>;
/** The type of a `@HasMany` property: `user.posts.findBy(...)`, `count()`, `create(...)`, `iterate()`. */
export type HasMany<T> = HasManyHandle<T>;
/** The type of a `@ManyToMany` property: `add`, `remove`, `replace`, `has`, `ids`, `list`, `findBy`, `count`. */
export type ManyToMany<T> = ManyToManyHandle<T>;
/** The type of a `@ManyToMany(..., { ordered: true })` property: a ManyToMany with `push`, `unshift`, `insertAt`, `move`. */
export type OrderedManyToMany<T> = OrderedManyToManyHandle<T>;

/**
 * What a relation decorator is applied to: an instance property `K` of the prototype `P` declared as the
 * handle `H` of the decorator's target model (`@BelongsTo(() => User) author!: BelongsTo<User>`). Anything
 * else (another model's handle, another kind of handle, a static property) makes the key argument fail to
 * compile, with this message in the error.
 */
export type DeclaredAs<P, K, H> = P extends Function ? RelationMismatch : DeclaredExactly<P, K, H, RelationMismatch>;
/** DeclaredAs for a standard decorator: `This` is the class for a static field, `V` the field's declared type. */
export type HeldAs<This, V, H> = This extends Function ? RelationMismatch : ValueExactly<V, H, RelationMismatch>;
/**
 * What `@BelongsTo`, `@HasMany` and `@ManyToMany` ask for: an instance property declared as the handle of the
 * decorator's target model. A property declared otherwise makes the decorator's key argument fail to compile.
 */
export type RelationMismatch = {
  /** What the declaration should be: shown in the compiler's error. */
  mismatch: "an instance property declared as the handle of the decorator's target model";
};

/** The decorator a relation decorator returns: `H` is the property's handle type. */
export interface RelationDecorator<H> {
  /** Legacy form. */
  <P extends object, K extends string>(prototype: P, key: K & DeclaredAs<P, K, H>, descriptor?: undefined): void;
  /** Standard form. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & HeldAs<This, V, H>): void;
}

/**
 * `unknown` when the has-many's `inverse` `I` names a property of the related model `T` declared as the
 * `BelongsTo` of the owner `P`, else `InverseMismatch`. An inverse known only as a `string` (options held in a
 * variable typed HasManyOptions) is left to the run-time check.
 */
export type InverseOf<T, I extends string, P> = string extends I
  ? unknown
  : I extends keyof T
    ? DeclaredExactly<T, I, BelongsTo<P>, InverseMismatch>
    : InverseMismatch;
/**
 * What a `@HasMany`'s `inverse` asks for: the name of the related model's `@BelongsTo` property of this model.
 * Another name makes the decorator's key argument fail to compile.
 */
export type InverseMismatch = {
  /** What the inverse should be: shown in the compiler's error. */
  mismatch: "an inverse naming the related model's @BelongsTo of this model";
};

/**
 * The decorator `@HasMany` returns: as RelationDecorator, and its `inverse` (`I`) must name the related model's
 * `@BelongsTo` property that points back to the model the decorator is applied to.
 */
export interface HasManyDecorator<T, I extends string> {
  /** Legacy form. */
  <P extends object, K extends string>(
    prototype: P,
    key: K & DeclaredAs<P, K, HasMany<T>> & InverseOf<T, I, P>,
    descriptor?: undefined,
  ): void;
  /** Standard form. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & HeldAs<This, V, HasMany<T>> & InverseOf<T, I, This>): void;
}

/** The model class a relation decorator's target returns: its instances are `T`. */
export type RelationTarget<T> = {
  /** The class's prototype, whose type gives the related instances' type `T`. */
  prototype: T;
};

function instanceProperty(decorator: string, target: object, property: string | symbol): string {
  if (typeof target === 'function' || typeof property !== 'string') {
    const owner = typeof target === 'function' ? target.name : target.constructor.name;
    throw new SchemaError(`${owner}.${String(property)}: @${decorator} goes on an instance property`);
  }
  if (typeof (target as Record<string, unknown>)[property] === 'function') {
    throw new SchemaError(`${target.constructor.name}.${property}: @${decorator} goes on a property, not a method`);
  }
  return property;
}

function checkTarget(decorator: string, owner: string, property: string, target: unknown): () => Function {
  if (typeof target !== 'function') {
    throw new SchemaError(`${owner}.${property}: @${decorator} takes a function returning the related model, e.g. () => User`);
  }
  return target as () => Function;
}

/** The options of `@BelongsTo` (docs/relations.md#belongs-to). */
export interface BelongsToOptions {
  /** The attribute holding the parent's id; default `<property>Id`. It is indexed (one set per parent). */
  foreignKey?: string;
}

/** The names each relation decorator takes (any other is a SchemaError: a misspelt `ondelete` would be ignored). */
const BELONGS_TO_OPTIONS = ['foreignKey'] as const satisfies ReadonlyArray<keyof BelongsToOptions>;
const HAS_MANY_OPTIONS = ['inverse', 'onDelete'] as const satisfies ReadonlyArray<keyof HasManyOptions>;
const MANY_TO_MANY_OPTIONS = ['inverse', 'ordered'] as const satisfies ReadonlyArray<keyof ManyToManyOptions>;

/**
 * The object belongs to one object of another model. The parent's id is stored in the indexed attribute
 * `<property>Id`; saving a pointer to a missing object throws RelationError.
 */
export function BelongsTo<T>(target: () => RelationTarget<T>, given?: BelongsToOptions): RelationDecorator<BelongsTo<T>> {
  if (refusedBareUse('@BelongsTo', arguments)) return undefined as never;
  return memberDecorator('@BelongsTo', 'field', (prototype, key) => {
    const property = instanceProperty('BelongsTo', prototype, key);
    const owner = prototype.constructor.name;
    const options = decoratorOptions(`${owner}.${property}`, '@BelongsTo', given, BELONGS_TO_OPTIONS);
    const foreignKey = options.foreignKey ?? `${property}Id`;
    const declaredBy = `@BelongsTo ${property}`;
    checkAttributeName(declaredBy, prototype, foreignKey);
    addPendingAttribute(prototype, { property: foreignKey, owner, designType: String, options: { type: 'string' }, declaredBy });
    addPendingIndex(prototype, { property: foreignKey, owner, kind: 'index', options: {} });
    addPendingRelation(prototype, { kind: 'belongsTo', property, target: checkTarget('BelongsTo', owner, property, target), foreignKey });
  });
}

/** The options of `@HasMany`: the inverse `@BelongsTo` and the `onDelete` rule (docs/relations.md#has-many). */
export interface HasManyOptions {
  /** The `@BelongsTo` property of the related model that points back here. */
  inverse: string;
  /** Deleting this object: 'restrict' (default: refused while it has any), 'cascade', or 'nullify'. */
  onDelete?: OnDelete;
}

/** The objects of another model that belong to this one (through their `@BelongsTo` named `inverse`). */
export function HasMany<T, I extends string>(
  target: () => RelationTarget<T>,
  options: HasManyOptions & { inverse: I },
): HasManyDecorator<T, I> {
  if (refusedBareUse('@HasMany', arguments)) return undefined as never;
  return memberDecorator('@HasMany', 'field', (prototype, key) => {
    const property = instanceProperty('HasMany', prototype, key);
    const owner = prototype.constructor.name;
    if (!options || typeof options.inverse !== 'string') {
      throw new SchemaError(`${owner}.${property}: @HasMany needs { inverse: '<the @BelongsTo property of the other model>' }`);
    }
    decoratorOptions(`${owner}.${property}`, '@HasMany', options, HAS_MANY_OPTIONS);
    const onDelete = options.onDelete ?? 'restrict';
    if (!['restrict', 'cascade', 'nullify'].includes(onDelete)) {
      throw new SchemaError(`${owner}.${property}: onDelete must be 'restrict', 'cascade' or 'nullify'`);
    }
    addPendingRelation(prototype, {
      kind: 'hasMany',
      property,
      target: checkTarget('HasMany', owner, property, target),
      inverse: options.inverse,
      onDelete,
    });
  });
}

/** The options of `@ManyToMany` (docs/relations.md#many-to-many). */
export interface ManyToManyOptions {
  /** The `@ManyToMany` property of the other model that is the other side of this one, if it declares one. */
  inverse?: string;
  /**
   * Keep this side's members in the order they are put in (`push`, `unshift`, `insertAt`, `move`), as a sorted set
   * of positions instead of a set (docs/relations.md#ordered-many-to-many). Default false.
   */
  ordered?: boolean;
}

/**
 * Membership on both sides, changed atomically; deleting either object removes it from the other side. With
 * `{ ordered: true }` the property is declared as `OrderedManyToMany<T>`, else as `ManyToMany<T>`.
 */
export function ManyToMany<T>(
  target: () => RelationTarget<T>,
  given: ManyToManyOptions & { ordered: true },
): RelationDecorator<OrderedManyToMany<T>>;
export function ManyToMany<T>(target: () => RelationTarget<T>, given?: ManyToManyOptions): RelationDecorator<ManyToMany<T>>;
export function ManyToMany<T>(
  target: () => RelationTarget<T>,
  given?: ManyToManyOptions,
): RelationDecorator<ManyToMany<T>> | RelationDecorator<OrderedManyToMany<T>> {
  if (refusedBareUse('@ManyToMany', arguments)) return undefined as never;
  return memberDecorator('@ManyToMany', 'field', (prototype, key) => {
    const property = instanceProperty('ManyToMany', prototype, key);
    const owner = prototype.constructor.name;
    const options = decoratorOptions(`${owner}.${property}`, '@ManyToMany', given, MANY_TO_MANY_OPTIONS);
    if (options.ordered !== undefined && typeof options.ordered !== 'boolean') {
      throw new SchemaError(`${owner}.${property}: @ManyToMany's ordered must be true or false`);
    }
    addPendingRelation(prototype, {
      kind: 'manyToMany',
      property,
      target: checkTarget('ManyToMany', owner, property, target),
      inverse: options.inverse,
      ordered: options.ordered === true,
    });
  });
}

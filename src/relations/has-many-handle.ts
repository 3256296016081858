import { describeValue } from '../util/describe-value';
import { ArgumentError, QueryError, RelationError, UniqueConstraintError } from '../errors/errors';
import { firstGiven, refuseExtraArguments } from '../errors/no-arguments';
import { activeConnection } from '../redis/connection';
import { callScript } from '../store/entry-script';
import { replaceChildrenScript } from '../store/lua/replace-children';
import { relatedId } from '../model/related-id';
import type { ModelDescriptor } from '../model/model-descriptor';
import { isPlainObject } from '../util/plain-object';
import { failingIterator } from '../util/failing-iterator';
import { isAttributeObject } from '../util/attribute-object';
import { StatefulEntity } from '../entity/entity-state';
import type { FindIdsOptions, FindOneOptions, FindOptions, IterateOptions, Where } from '../types/where-types';
import type { AttributeInput, Persisted, SaveOptions } from '../types/entity-types';
import { ownerIdOf, relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { inSameTenant } from '../model/tenant-scope';

/** The static side of the related model that the handle uses (BaseEntity's query methods). */
interface ChildModel<T> {
  findBy(where?: Where<T>, options?: FindOptions<T>): Promise<Array<Persisted<T>>>;
  findOneBy(where: Where<T>, options?: FindOneOptions<T>): Promise<Persisted<T> | null>;
  findIds(where?: Where<T>, options?: FindIdsOptions<T>): Promise<string[]>;
  /** `noOptions`: count takes none; a second argument is passed on for count to refuse (ArgumentError). */
  count(where?: Where<T>, noOptions?: unknown): Promise<number>;
  iterate(where?: Where<T>, options?: IterateOptions): AsyncGenerator<Persisted<T>>;
  create(attributes?: AttributeInput<T>, options?: SaveOptions): Promise<Persisted<T>>;
}

/**
 * `user.posts`: the objects whose `@BelongsTo` (named by `inverse`) points here. Every method is the related
 * model's own, with the foreign key added to the where: a scoped index on the foreign key (e.g.
 * `@Index({ scope: 'authorId' })` on `published`) answers `user.posts.findBy(..., { orderBy: { published } })`
 * from one sorted set.
 *
 * The handle owns the foreign key: a where or attributes that set it themselves are refused rather than
 * overwritten (the caller meant other objects than the owner's), and a where must be a plain object, since
 * spreading anything else would silently drop its conditions. Each method takes the options of the model's
 * method of the same name, typed the same, and passes them on as given: the model's method honours them, or
 * refuses them as it refuses them from any caller (count takes none, and a second argument is an
 * ArgumentError). Every method reports bad input and an unsaved owner the way it reports anything else: as a
 * rejection (iterate: on the first next()).
 */
export class HasManyHandle<T> implements RelationHandle {
  /** @hidden */
  declare readonly [relationBrand]: true;

  constructor(
    private readonly owner: RelationOwner,
    private readonly target: () => Function,
    private readonly foreignKey: string,
    /** The relation's property (`posts`), for messages. */
    private readonly property: string,
  ) {}

  /** The owner's related objects matching `where`, as the model's findBy finds them; `options` (orderBy, offset, limit, include) as it takes them. */
  async findBy(where: Where<T> = {}, options: FindOptions<T> = {}): Promise<Array<Persisted<T>>> {
    return this.child().findBy(this.scoped(where), options);
  }

  /** The first of the owner's related objects matching `where` (by id, or by `orderBy`), or null when none does. */
  async findOneBy(where: Where<T> = {}, options: FindOneOptions<T> = {}): Promise<Persisted<T> | null> {
    return this.child().findOneBy(this.scoped(where), options);
  }

  /** The ids of the owner's related objects matching `where`, as the model's findIds gives them. */
  async findIds(where: Where<T> = {}, options: FindIdsOptions<T> = {}): Promise<string[]> {
    return this.child().findIds(this.scoped(where), options);
  }

  /** How many of the owner's related objects match `where` (all of them without one); it takes no options. */
  async count(where: Where<T> = {}): Promise<number> {
    // no options, as the model's count; one given anyway (`{ limit }` from a caller without types, in any
    // place after the where) is passed on for it to refuse, rather than dropped here and the whole count answered
    const noOptions: unknown = firstGiven(arguments, 1);
    return this.child().count(this.scoped(where), noOptions);
  }

  /** Every one of the owner's related objects matching `where`, in id order, read `batchSize` per round trip. */
  iterate(where: Where<T> = {}, options: IterateOptions = {}): AsyncGenerator<Persisted<T>> {
    let scoped: Where<T>;
    try {
      scoped = this.scoped(where);
    } catch (error) {
      return failingIterator(error);
    }
    return this.child().iterate(scoped, options);
  }

  /** Creates a related object that belongs to the owner; `options` as the model's create() takes them. */
  async create(attributes: AttributeInput<T> = {}, options?: SaveOptions): Promise<Persisted<T>> {
    const ownerId = ownerIdOf(this.owner);
    const model = this.childModel();
    // what the model's create takes (isAttributeObject), checked here since the spread below would make {} of a Map
    if (!isAttributeObject(attributes)) {
      throw new ArgumentError(`${this.name()}.create: the attributes must be an object, got ${describeValue(attributes)}`);
    }
    if (attributes instanceof StatefulEntity) {
      throw new ArgumentError(`${this.name()}.create: the attributes must be an object, not an entity; got ${describeValue(attributes)}`);
    }
    if (this.namesForeignKey(attributes)) throw new ArgumentError(this.foreignKeyIsOurs(model));
    return this.child().create({ ...attributes, [this.foreignKey]: ownerId } as AttributeInput<T>, options);
  }

  /**
   * Makes the owner's children exactly `children` (objects of the related model or their ids), in one script:
   * each gets the owner's id as its foreign key, and every other child of the owner has it cleared, as
   * onDelete 'nullify' clears it (index entries move with it; no hook runs and versions are kept). Every object
   * must be live (RelationError), and a unique index on the foreign key must stay unique
   * (UniqueConstraintError); nothing changes then.
   */
  async replace(children: ReadonlyArray<T | string | number>): Promise<void> {
    refuseExtraArguments(`${this.name()}.replace`, arguments, 1, 'an array of objects or ids');
    if (!Array.isArray(children))
      throw new ArgumentError(`${this.name()}.replace: expected an array of objects or ids, got ${describeValue(children)}`);
    const ownerId = ownerIdOf(this.owner);
    const model = this.childModel();
    const ids = [...new Set(children.map((child: T | string | number) => relatedId(model, child, () => this.name())))];
    const { client, prefix } = activeConnection();
    const outcome = await callScript(client, replaceChildrenScript, {
      parentObject: this.owner.model().keys(prefix).object(ownerId),
      parentId: ownerId,
      child: model.keys(prefix),
      foreignKey: this.foreignKey,
      indexes: model.indexes.filter((index) => index.attribute.field === this.foreignKey || index.scope?.field === this.foreignKey),
      ids,
    });
    if ('unique' in outcome) {
      throw new UniqueConstraintError(model.name, outcome.unique, outcome.value);
    }
    if ('missing' in outcome) {
      const which = outcome.missing === 'self' ? `${this.owner.model().name} object` : `${model.name} object ${JSON.stringify(outcome.id)}`;
      throw new RelationError(`${this.name()}.replace: the ${which} does not exist`);
    }
  }

  /** `where` with the foreign key = the owner's id added (ANDed: a foreign key inside an OR stays a condition). */
  private scoped(where: Where<T>): Where<T> {
    const ownerId = ownerIdOf(this.owner);
    const model = this.childModel();
    if (!isPlainObject(where)) throw new QueryError(`${model.name}: a where must be an object, got ${describeValue(where)}`);
    if (this.namesForeignKey(where)) throw new QueryError(this.foreignKeyIsOurs(model));
    return { ...where, [this.foreignKey]: ownerId } as Where<T>;
  }

  /** Whether a where or attributes give the foreign key a value (undefined is "no condition", as in any where). */
  private namesForeignKey(fields: Record<string, unknown>): boolean {
    return Object.hasOwn(fields, this.foreignKey) && fields[this.foreignKey] !== undefined;
  }

  private foreignKeyIsOurs(model: ModelDescriptor): string {
    return `${model.name}.${this.foreignKey} is set by ${this.name()}; leave it out`;
  }

  /** `User.posts`, for messages. */
  private name(): string {
    return `${this.owner.model().name}.${this.property}`;
  }

  private childModel(): ModelDescriptor {
    return inSameTenant(this.owner.model(), this.target());
  }

  private child(): ChildModel<T> {
    return this.childModel().ctor as unknown as ChildModel<T>;
  }
}

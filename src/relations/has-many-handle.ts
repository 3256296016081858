import { RelationError } from '../errors/errors';
import type { FindOptions, IterateOptions, Where } from '../query/where-types';
import type { AttributeInput, Persisted } from '../types/entity-types';
import { relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { inSameTenant } from './tenant-scope';

/** The static side of the related model that the handle uses (BaseEntity's query methods). */
interface ChildModel<T> {
  findBy(where?: Where<T>, options?: FindOptions<T>): Promise<Array<Persisted<T>>>;
  findOneBy(where: Where<T>, options?: Omit<FindOptions<T>, 'limit'>): Promise<Persisted<T> | null>;
  findIds(where?: Where<T>, options?: FindOptions<T>): Promise<string[]>;
  count(where?: Where<T>): Promise<number>;
  iterate(where?: Where<T>, options?: IterateOptions): AsyncGenerator<Persisted<T>>;
  create(attributes?: AttributeInput<T>): Promise<Persisted<T>>;
}

/**
 * `user.posts`: the objects whose `@BelongsTo` (named by `inverse`) points here. Every method is the related
 * model's own, with the foreign key added to the where: a scoped index on the foreign key (e.g.
 * `@Index({ scope: 'authorId' })` on `published`) answers `user.posts.findBy(..., { orderBy: { published } })`
 * from one sorted set.
 */
export class HasManyHandle<T> implements RelationHandle {
  declare readonly [relationBrand]: true;

  constructor(
    private readonly owner: RelationOwner,
    private readonly target: () => Function,
    private readonly foreignKey: string,
  ) {}

  findBy(where: Where<T> = {}, options: FindOptions<T> = {}): Promise<Array<Persisted<T>>> {
    return this.child().findBy(this.scoped(where), options);
  }

  findOneBy(where: Where<T> = {}, options: Omit<FindOptions<T>, 'limit'> = {}): Promise<Persisted<T> | null> {
    return this.child().findOneBy(this.scoped(where), options);
  }

  findIds(where: Where<T> = {}, options: FindOptions<T> = {}): Promise<string[]> {
    return this.child().findIds(this.scoped(where), options);
  }

  count(where: Where<T> = {}): Promise<number> {
    return this.child().count(this.scoped(where));
  }

  iterate(where: Where<T> = {}, options: IterateOptions = {}): AsyncGenerator<Persisted<T>> {
    return this.child().iterate(this.scoped(where), options);
  }

  /** Creates a related object that belongs to the owner. */
  create(attributes: AttributeInput<T> = {}): Promise<Persisted<T>> {
    return this.child().create({ ...attributes, [this.foreignKey]: this.ownerId() } as AttributeInput<T>);
  }

  private ownerId(): string {
    const id = this.owner.id();
    if (id === undefined) throw new RelationError(`${this.owner.model().name}: save the object before using its relations`);
    return id;
  }

  private scoped(where: Where<T>): Where<T> {
    return { ...where, [this.foreignKey]: this.ownerId() } as Where<T>;
  }

  private child(): ChildModel<T> {
    return inSameTenant(this.owner.model(), this.target()).ctor as unknown as ChildModel<T>;
  }
}

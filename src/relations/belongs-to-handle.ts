import type { Persisted } from '../types/entity-types';
import { refuseArguments } from '../errors/no-arguments';
import { relatedId } from '../model/related-id';
import { preloadParent } from '../types/relation-handle';
import { relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { inSameTenant } from '../model/tenant-scope';

type Loadable<T> = { find(id: string): Promise<Persisted<T> | null> };

/**
 * `post.author`: the parent of a @BelongsTo. The parent's id lives in the foreign key attribute (`authorId`),
 * saved with the object; `set` changes it, `load` reads the parent (or takes it from an `include`).
 */
export class BelongsToHandle<T> implements RelationHandle {
  /** @hidden */
  declare readonly [relationBrand]: true;

  private loaded: { id: string; value: Persisted<T> | null } | undefined;

  constructor(
    private readonly owner: RelationOwner,
    private readonly foreignKey: string,
    private readonly target: () => Function,
    /** The relation's property (`author`), for messages. */
    private readonly property: string,
  ) {}

  /** The parent's id, or undefined. */
  get id(): string | undefined {
    const value = (this.owner.entity as Record<string, unknown>)[this.foreignKey];
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * Points to `parent`, or to nothing with null. Saved by the owner's next save(). `parent` is an id or an
   * instance of the target model in the owner's tenant scope (relatedId: ArgumentError for any other object,
   * RelationError for an instance without an id, InvalidIdError for a malformed id); nothing changes on error.
   */
  set(parent: T | string | number | null): void {
    const entity = this.owner.entity as Record<string, unknown>;
    if (parent === null || parent === undefined) {
      entity[this.foreignKey] = undefined;
      this.loaded = undefined;
      return;
    }
    const id = relatedId(this.targetModel(), parent, () => this.name());
    entity[this.foreignKey] = id;
    // an instance given is the parent itself (relatedId refused one without an id): value and load() need no read
    this.loaded = typeof parent === 'object' ? { id, value: parent as Persisted<T> } : undefined;
  }

  /** The parent, read once (null when the pointer is empty or the parent is gone). */
  async load(): Promise<Persisted<T> | null> {
    refuseArguments(`${this.name()}.load`, arguments);
    const id = this.id;
    if (id === undefined) return null;
    if (this.loaded?.id === id) return this.loaded.value;
    const value = await (this.targetModel().ctor as unknown as Loadable<T>).find(id);
    this.loaded = { id, value };
    return value;
  }

  /** The parent loaded by load() or by an `include`, if it is the current one. */
  get value(): Persisted<T> | null | undefined {
    return this.loaded?.id === this.id ? this.loaded?.value : undefined;
  }

  /** Used by `include`: the parent read in the query's extra round trip. */
  [preloadParent](value: Persisted<T> | null): void {
    const id = this.id;
    if (id !== undefined) this.loaded = { id, value };
  }

  /** `Post.author`, for messages. */
  private name(): string {
    return `${this.owner.model().name}.${this.property}`;
  }

  private targetModel() {
    return inSameTenant(this.owner.model(), this.target());
  }

  /** The parent's id, or undefined for an empty pointer: JSON.stringify writes the handle as that id, or leaves it out. */
  toJSON(): string | undefined {
    return this.id;
  }
}

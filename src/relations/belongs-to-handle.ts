import { RelationError } from '../errors/errors';
import { normalizeId } from '../keys/id-format';
import { relationBrand, RelationHandle, RelationOwner } from './relation-handle';
import { inSameTenant } from './tenant-scope';

type Loadable<T> = { find(id: string): Promise<T | null> };

/**
 * `post.author`: the parent of a @BelongsTo. The parent's id lives in the foreign key attribute (`authorId`),
 * saved with the object; `set` changes it, `load` reads the parent (or takes it from an `include`).
 */
export class BelongsToHandle<T> implements RelationHandle {
  declare readonly [relationBrand]: true;

  private loaded: { id: string; value: T | null } | undefined;

  constructor(
    private readonly owner: RelationOwner,
    private readonly foreignKey: string,
    private readonly target: () => Function,
  ) {}

  /** The parent's id, or undefined. */
  get id(): string | undefined {
    const value = (this.owner.entity as Record<string, unknown>)[this.foreignKey];
    return typeof value === 'string' ? value : undefined;
  }

  /** Points to `parent` (an entity or an id), or to nothing with null. Saved by the owner's next save(). */
  set(parent: T | string | number | null): void {
    const entity = this.owner.entity as Record<string, unknown>;
    if (parent === null || parent === undefined) {
      entity[this.foreignKey] = undefined;
      this.loaded = undefined;
      return;
    }
    if (typeof parent === 'object') {
      const id = (parent as { id?: string }).id;
      if (id === undefined) throw new RelationError(`${this.foreignKey}: the related object is not saved yet`);
      entity[this.foreignKey] = id;
      this.loaded = { id, value: parent };
      return;
    }
    const model = this.targetModel();
    entity[this.foreignKey] = normalizeId(model.name, parent);
    this.loaded = undefined;
  }

  /** The parent, read once (null when the pointer is empty or the parent is gone). */
  async load(): Promise<T | null> {
    const id = this.id;
    if (id === undefined) return null;
    if (this.loaded?.id === id) return this.loaded.value;
    const value = await (this.targetModel().ctor as unknown as Loadable<T>).find(id);
    this.loaded = { id, value };
    return value;
  }

  /** The parent loaded by load() or by an `include`, if it is the current one. */
  get value(): T | null | undefined {
    return this.loaded?.id === this.id ? this.loaded?.value : undefined;
  }

  /** Used by `include`: the parent read in the query's extra round trip. */
  preload(value: T | null): void {
    const id = this.id;
    if (id !== undefined) this.loaded = { id, value };
  }

  private targetModel() {
    return inSameTenant(this.owner.model(), this.target());
  }

  toJSON(): string | undefined {
    return this.id;
  }
}

import {
  AfterLoad,
  Attr,
  BaseEntity,
  BeforeCreate,
  BeforeSave,
  BelongsTo,
  Counter,
  HasMany,
  Index,
  ManyToMany,
  Model,
  Unique,
  Version,
} from 'redis-record';

/**
 * The blog of blog-scenario.ts written with legacy decorators (experimentalDecorators, emitDecoratorMetadata),
 * in the same text as its standard twin, tests/decorators-standard/blog-models.ts, but for the model names.
 */

/** A base class that is no model: its attribute and its hook are its subclasses'. */
abstract class Stamped extends BaseEntity {
  @Attr({ type: 'date' }) createdAt?: Date;

  @BeforeCreate stampCreated(): void {
    this.createdAt = new Date(1_000);
  }
}

@Model({ name: 'LegAuthor' })
export class Author extends Stamped {
  @Attr({ type: 'string' }) name?: string;
  @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
  @HasMany(() => Post, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<Post>;
}

@Model({ name: 'LegPost' })
export class Post extends Stamped {
  @Attr({ type: 'string' }) @Index() title?: string;
  @Attr({ type: 'string' }) slug?: string;
  @Attr() @Index() rank = 0;
  @Counter() views = 0;
  @Version() version?: number;
  @BelongsTo(() => Author) author!: BelongsTo<Author>;
  authorId?: string;
  @ManyToMany(() => Tag, { inverse: 'posts' }) tags!: ManyToMany<Tag>;
  loads = 0;

  @BeforeSave makeSlug(): void {
    this.slug = this.title?.toLowerCase().replace(/\W+/g, '-');
  }

  @AfterLoad countLoad(): void {
    this.loads++;
  }
}

@Model({ name: 'LegTag' })
export class Tag extends Stamped {
  @Attr({ type: 'string' }) @Unique() label?: string;
  @ManyToMany(() => Post, { inverse: 'tags' }) posts!: ManyToMany<Post>;
}

@Model({ name: 'LegNote' })
export class Note extends Stamped {
  @Attr({ type: 'string' }) @Index() text?: string;
}

/** A model extending a model: it stores the attributes of both, and its objects are its own. */
@Model({ name: 'LegPinned' })
export class Pinned extends Note {
  @Attr({ type: 'boolean' }) pinned?: boolean;
}

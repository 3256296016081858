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
 * The blog of tests/support/decorator-forms/blog-scenario.ts written with standard (TC39) decorators: compiled
 * without experimentalDecorators, so without decorator metadata, each attribute gives its type or a default
 * value that tells it. The legacy twin is tests/support/decorator-forms/legacy-blog-models.ts: the same text.
 */

/** A base class that is no model: its attribute and its hook are its subclasses'. */
abstract class Stamped extends BaseEntity {
  @Attr({ type: 'date' }) createdAt?: Date;

  @BeforeCreate stampCreated(): void {
    this.createdAt = new Date(1_000);
  }
}

@Model({ name: 'StdAuthor' })
export class Author extends Stamped {
  @Attr({ type: 'string' }) name?: string;
  @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
  @HasMany(() => Post, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<Post>;
}

@Model({ name: 'StdPost' })
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

@Model({ name: 'StdTag' })
export class Tag extends Stamped {
  @Attr({ type: 'string' }) @Unique() label?: string;
  @ManyToMany(() => Post, { inverse: 'tags' }) posts!: ManyToMany<Post>;
}

@Model({ name: 'StdNote' })
export class Note extends Stamped {
  @Attr({ type: 'string' }) @Index() text?: string;
}

/** A model extending a model: it stores the attributes of both, and its objects are its own. */
@Model({ name: 'StdPinned' })
export class Pinned extends Note {
  @Attr({ type: 'boolean' }) pinned?: boolean;
}

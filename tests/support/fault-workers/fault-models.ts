import { Attr, BaseEntity, BelongsTo, Counter, HasMany, Index, ManyToMany, Model, Unique } from '../../../src';

/**
 * The models the fault-injection suite (tests/faults) shares with its worker processes, all in one group.
 * Every attribute names its type, so the workers also run transpiled only. Each object carries `w`, the
 * worker that owns it (an indexed attribute, so a worker can read back everything it owns): relations only
 * link objects of one worker, while unique values come from pools all workers draw from.
 *   users   own posts (cascade) and badges (restrict), and have many tags (inverse on both sides);
 *   posts   own notes (nullify); scoped score and lex indexes by author, a set index, a unique code;
 *   board   one counter every worker increments.
 */

@Model({ group: 'fz' })
export class FzUser extends BaseEntity {
  @Attr({ type: 'string' }) @Index() w?: string;
  @Attr({ type: 'string' }) @Index({ sortable: true }) name?: string;
  @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
  @Counter() @Index() visits?: number;
  @HasMany(() => FzPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<FzPost>;
  @HasMany(() => FzBadge, { inverse: 'owner', onDelete: 'restrict' }) badges!: HasMany<FzBadge>;
  @ManyToMany(() => FzTag, { inverse: 'users' }) tags!: ManyToMany<FzTag>;
}

@Model({ group: 'fz' })
export class FzPost extends BaseEntity {
  @Attr({ type: 'string' }) @Index() w?: string;
  @BelongsTo(() => FzUser) author!: BelongsTo<FzUser>;
  authorId?: string;
  @Attr({ type: 'number' }) @Index({ scope: 'authorId' }) rank?: number;
  @Attr({ type: 'string' }) @Index({ sortable: true, scope: 'authorId' }) title?: string;
  @Attr({ type: 'string' }) @Index() color?: string;
  @Attr({ type: 'string' }) @Unique() code?: string;
  @Counter() likes?: number;
  @HasMany(() => FzNote, { inverse: 'post', onDelete: 'nullify' }) notes!: HasMany<FzNote>;
}

@Model({ group: 'fz' })
export class FzNote extends BaseEntity {
  @Attr({ type: 'string' }) @Index() w?: string;
  @BelongsTo(() => FzPost) post!: BelongsTo<FzPost>;
  postId?: string;
  @Attr({ type: 'number' }) @Index({ scope: 'postId' }) order?: number;
}

@Model({ group: 'fz' })
export class FzTag extends BaseEntity {
  @Attr({ type: 'string' }) @Index() w?: string;
  @Attr({ type: 'string' }) @Unique() label?: string;
  @ManyToMany(() => FzUser, { inverse: 'tags' }) users!: ManyToMany<FzUser>;
}

@Model({ group: 'fz' })
export class FzBadge extends BaseEntity {
  @Attr({ type: 'string' }) @Index() w?: string;
  @BelongsTo(() => FzUser) owner!: BelongsTo<FzUser>;
  ownerId?: string;
  @Attr({ type: 'string' }) @Index() kind?: string;
}

@Model({ group: 'fz' })
export class FzBoard extends BaseEntity {
  @Counter() hits?: number;
}

export const FAULT_MODELS = [FzUser, FzPost, FzNote, FzTag, FzBadge, FzBoard];

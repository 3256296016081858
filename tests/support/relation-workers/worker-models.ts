import { Attr, BaseEntity, BelongsTo, HasMany, Index, ManyToMany, Model } from '../../../src';

/**
 * The models tests/relations/concurrent-relations.test.ts shares with its worker processes. Every attribute
 * names its type, so the workers also run transpiled only (no reliable decorator type metadata).
 * Users own posts (cascade), posts own notes (nullify), users and tags are many-to-many (inverse on both sides).
 */

@Model({ group: 'cc' })
export class CcUser extends BaseEntity {
  @Attr({ type: 'string' }) name?: string;
  @HasMany(() => CcPost, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<CcPost>;
  @ManyToMany(() => CcTag, { inverse: 'users' }) tags!: ManyToMany<CcTag>;
}

@Model({ group: 'cc' })
export class CcPost extends BaseEntity {
  @BelongsTo(() => CcUser) author!: BelongsTo<CcUser>;
  authorId?: string;
  @Attr({ type: 'number' }) @Index({ scope: 'authorId' }) rank?: number;
  @HasMany(() => CcNote, { inverse: 'post', onDelete: 'nullify' }) notes!: HasMany<CcNote>;
}

@Model({ group: 'cc' })
export class CcNote extends BaseEntity {
  @BelongsTo(() => CcPost) post!: BelongsTo<CcPost>;
  postId?: string;
  @Attr({ type: 'number' }) @Index({ scope: 'postId' }) order?: number;
}

@Model({ group: 'cc' })
export class CcTag extends BaseEntity {
  @Attr({ type: 'string' }) name?: string;
  @ManyToMany(() => CcUser, { inverse: 'tags' }) users!: ManyToMany<CcUser>;
}

export const RELATION_MODELS = [CcUser, CcPost, CcNote, CcTag];

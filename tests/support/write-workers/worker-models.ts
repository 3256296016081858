import { Attr, BaseEntity, Index, Model, Unique, Version } from '../../../src';

/**
 * The models tests/writes shares with its worker processes. Every attribute names its type, so the workers
 * also run transpiled only (no reliable decorator type metadata).
 */

/** A feed item upserted by its URL from several processes at once. */
@Model()
export class FeedItem extends BaseEntity {
  @Attr({ type: 'string' }) @Unique() url!: string;
  @Attr({ type: 'string' }) @Index() feed!: string;
  @Attr({ type: 'string' }) writer?: string;
  @Version() version?: number;
}

/** A bag whose tags several processes push onto (or addToSet) at once. */
@Model()
export class TagBag extends BaseEntity {
  @Attr({ type: 'string' }) name!: string;
  @Attr({ type: 'json' }) @Index({ each: true }) tags?: string[];
}

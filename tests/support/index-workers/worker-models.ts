import { Attr, BaseEntity, Index, Model, Unique } from '../../../src';

/**
 * The models the index workers (index-worker.ts) and their tests share. Every attribute names its type, so
 * the workers also run transpiled without type information.
 */

/** Many processes create it with one e-mail address at once: exactly one may win. */
@Model()
export class RaceMember extends BaseEntity {
  @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
  @Attr({ type: 'string' }) worker?: string;
}

/** Lanes of work in each churn worker, at once, each with stale copies of its own. */
export const CHURN_LANES = 3;

/** Every kind of index, changed at random by concurrent writers. */
@Model()
export class ChurnItem extends BaseEntity {
  @Attr({ type: 'number' }) @Index() n?: number;
  @Attr({ type: 'string' }) @Index() color?: string;
  @Attr({ type: 'boolean' }) @Index() flag?: boolean;
  @Attr({ type: 'string' }) @Index({ sortable: true }) title?: string;
  @Attr({ type: 'string' }) owner?: string;
  @Attr({ type: 'date' }) @Index({ scope: 'owner' }) at?: Date;
  @Attr({ type: 'string' }) @Index({ sortable: true, scope: 'owner' }) slug?: string;
  @Attr({ type: 'number' }) @Index() @Index({ scope: 'color' }) rank?: number;
  @Attr({ type: 'string' }) @Unique({ caseInsensitive: true }) email?: string;
  @Attr({ type: 'string' }) @Unique() code?: string;
}

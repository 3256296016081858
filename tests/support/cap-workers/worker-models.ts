import { Attr, BaseEntity, Index, Model, Unique } from '../../../src';

/**
 * The model tests/writes/cap-per-value.test.ts shares with its worker processes. Every attribute names its type,
 * so the workers also run transpiled only (no reliable decorator type metadata).
 */

/** How many logins each user keeps. */
export const PER_KEEP = 4;

/** The last PER_KEEP logins of each user, by `at`; each with a unique token and an indexed device. */
@Model({ cap: { by: 'at', keep: PER_KEEP, per: 'userId' } })
export class CapLogin extends BaseEntity {
  @Attr({ type: 'string' }) userId?: string;
  @Attr({ type: 'number' }) @Index({ scope: 'userId' }) at?: number;
  @Attr({ type: 'string' }) @Unique() token?: string;
  @Attr({ type: 'string' }) @Index() device?: string;
}

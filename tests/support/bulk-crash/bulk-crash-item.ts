import { Attr, BaseEntity, Index, Model } from '../../../src';

/**
 * The model the bulk crash test writes with saveMany: sequence ids and nothing to check before a create (its
 * chunks go out as one MULTI each), with an index of each kind. Every attribute names its type (the worker runs
 * transpiled, without decorator type metadata).
 */
@Model()
export class BulkCrashItem extends BaseEntity {
  @Attr({ type: 'number' }) call!: number;
  @Attr({ type: 'number' }) pos!: number;
  @Attr({ type: 'string' }) @Index() kind!: string;
  @Attr({ type: 'date' }) @Index() at!: Date;
  @Attr({ type: 'string' }) @Index({ sortable: true }) label!: string;
  @Attr({ type: 'string' }) body!: string;
}

/** Objects per saveMany call, and per chunk (one MULTI each). */
export const BULK_CRASH_BATCH = 400;
export const BULK_CRASH_CHUNK = 40;

/** The attributes of item `pos` of call `call`: what the worker saves, and what the test expects to find. */
export function bulkCrashAttributes(call: number, pos: number) {
  return {
    call,
    pos,
    kind: `k${pos % 5}`,
    at: new Date(1_700_000_000_000 + call * 1000 + pos),
    label: `l${(call * 7 + pos) % 50}`,
    body: 'b'.repeat(50 + ((call + pos) % 400)),
  };
}

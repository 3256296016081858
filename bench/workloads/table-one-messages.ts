import type { Operation } from './table-one';
import type { TableOneKind } from './table-one-writers';

/** What a Table I process is started with (as its one argument, in JSON): whom to run, where, on which posts. */
export interface TableOneSetup {
  readonly kind: TableOneKind;
  readonly url: string;
  /** The suite's prefix: the writer writes under its own part of it (table-one-writers.ts). */
  readonly prefix: string;
  /**
   * The process makes the suite's posts and new contents itself, makePosts(posts, seed, used) as the suite makes
   * them, so that they are the same; it keeps the first `used` posts, those Table I writes.
   */
  readonly posts: number;
  readonly used: number;
  readonly seed: number;
}

/** From the suite to a Table I process; each is answered before the next is sent. */
export type ToTableOne =
  | { readonly type: 'reset'; readonly size: number }
  | { readonly type: 'time'; readonly operation: Operation; readonly from: number; readonly to: number; readonly concurrency: number }
  | { readonly type: 'count' }
  | { readonly type: 'load'; readonly i: number }
  | { readonly type: 'close' };

/**
 * From a Table I process to the suite: `ready` once connected with its posts made (`counts`: whether the writer
 * can count), then one answer per request: `done` to a reset, `timed` (the block's seconds) to a time, `counted`
 * and `loaded` to a count and a load, `failed` to any that failed.
 */
export type FromTableOne =
  | { readonly type: 'ready'; readonly counts: boolean }
  | { readonly type: 'done' }
  | { readonly type: 'timed'; readonly seconds: number }
  | { readonly type: 'counted'; readonly count: number }
  | { readonly type: 'loaded'; readonly content: string }
  | { readonly type: 'failed'; readonly message: string };

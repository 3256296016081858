import type { WriterKind } from './bulk-writers';

/** What a writer process is started with (as its one argument, in JSON): whom to run, where, on which posts. */
export interface WriterSetup {
  readonly kind: WriterKind;
  readonly url: string;
  readonly prefix: string;
  /** The process makes the suite's posts itself: makePosts(posts, seed), the same posts as the suite's. */
  readonly posts: number;
  readonly seed: number;
}

/** From the suite to a writer process. */
export type ToWriter = { readonly type: 'run'; readonly size: number } | { readonly type: 'close' };

/**
 * From a writer process to the suite: `cpuMicros` is the process's CPU time during the call (all its threads,
 * garbage collection included), `gcMicros` the time its main thread stood still for garbage collection
 * meanwhile (Node's `gc` performance entries: the pauses, not the collector's work on helper threads),
 * `pageFaults` the minor page faults it took (memory it touched for the first time, or again after it was
 * given back), `stored` the writer's own count, null when it has none.
 */
export type FromWriter =
  | { readonly type: 'ready'; readonly name: string; readonly method: string }
  | {
      readonly type: 'ran';
      readonly seconds: number;
      readonly cpuMicros: number;
      readonly gcMicros: number;
      readonly pageFaults: number;
      readonly stored: number | null;
    }
  | { readonly type: 'failed'; readonly message: string };

/**
 * A query compiled for query.lua (see its header for the instruction set): plain data, planned by src/query and
 * sent by lua/query.ts.
 */
export type ScriptArg = string | Buffer;

export type PlanOrder =
  | { readonly kind: 'id' }
  | { readonly kind: 'score' | 'lex'; readonly key: string; readonly field: string; readonly desc: boolean }
  | {
      readonly kind: 'compound';
      readonly key: string;
      /** The parts' fields joined by '+'. */
      readonly field: string;
      /** The direction of the last part: ties by id follow it. */
      readonly desc: boolean;
      /** 'a' or 'd' per part after those the where pins with an equality. */
      readonly directions: string;
      /** Per part, '1' (numbers and Dates, ordered as numbers) or '0' (strings). */
      readonly types: string;
    };

export interface QueryPlan {
  /** Instructions leaving the matching ids on the stack; empty: every object. */
  readonly program: readonly ScriptArg[];
  readonly order: PlanOrder;
  /** Set when the page is read straight from a window of the order's index (no temporary keys). */
  readonly window?: { readonly min: ScriptArg; readonly max: ScriptArg };
  /** The hash fields a load reads (HMGET), `#id` first; undefined: every field (HGETALL). See src/query/loaded-fields.ts. */
  readonly loadFields?: readonly string[];
}

export interface PageRequest {
  readonly offset: number;
  /** -1: no limit. */
  readonly limit: number;
  /** In id order, the page starts after this id; with `after`, the id of the keyset's object. */
  readonly afterId?: string;
  /**
   * A keyset in score or lex order: the page starts after the object whose score (its stored number, 'inf' when
   * absent) or lex member this is, and whose id is `afterId`. It lies in the plan's window (keyset.ts).
   */
  readonly after?: ScriptArg;
}

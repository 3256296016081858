import { ModelKeys } from '../../keys/model-keys';
import { EntryScript } from '../entry-script';
import { ScriptArg } from '../query-plan';
import { scripts } from '../scripts';

/** Where count-by.lua reads an attribute's values (see its header). */
export type FacetSource = { readonly kind: 'score' | 'lex'; readonly key: string } | { readonly kind: 'hash' | 'tags' };

/** count-by.lua: how many live objects hold each value of one attribute (see its header). */
export interface CountByInput {
  readonly keys: ModelKeys;
  /** The attribute's hash field. */
  readonly field: string;
  readonly source: FacetSource;
  /** The where's program (query-program.lua); empty: every object. */
  readonly program: readonly ScriptArg[];
}

/** The counts by stored value (a score index's values as Redis writes scores); values held by no object are absent. */
export const countByScript: EntryScript<CountByInput, Map<string, number>> = {
  function: () => scripts.countBy(),
  keys: ({ keys }) => [keys.all, keys.base],
  args: ({ field, source, program }) => [field, source.kind, 'key' in source ? source.key : '', ...program],
  reply(reply) {
    const rows = reply as unknown[];
    const counts = new Map<string, number>();
    for (let i = 0; i + 1 < rows.length; i += 2) counts.set(String(rows[i]), Number(rows[i + 1]));
    return counts;
  },
};

import { StoredDefinition, StoredIndex } from '../schema/stored-definition';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { raw } from './raw-commands';

/** Whether `index` is the one a cap trims: the score index of `by`, scoped by `per` for a cap per value. */
export function isCapIndex(definition: StoredDefinition, index: StoredIndex): boolean {
  const cap = definition.cap;
  return cap !== null && index.kind === 'score' && index.attribute === cap.by && index.scope === (cap.per ?? null);
}

/**
 * The live objects met in one capped index key (the model's, or one group's of a cap per value), as its members
 * are checked: at most one past `keep` are held, which is all it takes to know the key is over its cap.
 */
export class CapCount {
  private readonly live = new Set<string>();

  constructor(readonly keep: number) {}

  add(id: string): void {
    if (this.live.size <= this.keep) this.live.add(id);
  }

  get over(): boolean {
    return this.live.size > this.keep;
  }
}

/**
 * Reports a capped index key holding more live objects than its cap keeps (`overCap`): a smaller `keep` deployed,
 * objects written before the cap, or written around the library. Writes trim only the group they move; repair()
 * trims the key as a write would (trim-cap.lua).
 */
export async function reportOverCap(scope: ModelScope, findings: Findings, key: string, count: CapCount): Promise<void> {
  const cap = scope.definition.cap;
  if (!cap || !count.over) return;
  const entries = await raw(scope.client).zCard(key);
  const what = cap.per === undefined ? 'the model' : `each value of ${cap.per}`;
  findings.add(
    'overCap',
    { key },
    `${key}: more than ${cap.keep} live objects (${entries} entries), where the cap keeps ${cap.keep} of ${what}`,
    {
      type: 'trim',
      key,
    },
  );
}

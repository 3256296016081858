import { bytes, entriesOf } from './expected-entries';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { binary, latin1, unlessWrongType } from './raw-commands';
import { readEntries } from './check-entries';

/**
 * A memo (kept by objects of a model with a ttl or a cap, and by objects given a TTL by expire()) must record
 * exactly the object's entries: a unique value only while its unique hash names the object, as a save and the
 * object's repair record it (one that another object owns, a duplicateUnique, is not the object's entry).
 * `which`: 'model' (every object of a model with a ttl or a cap; none in another model), 'met' (memos the key
 * scan met, in a model that does not keep them otherwise: one gone meanwhile is not reported) or 'expiring'
 * (objects whose hash expires, in such a model: each must keep a memo).
 */
export async function checkMemos(
  scope: ModelScope,
  findings: Findings,
  objects: Array<[string, Map<string, string>]>,
  which: 'model' | 'met' | 'expiring' = 'model',
): Promise<void> {
  const keeps = which === 'expiring' || scope.definition.ttlMs !== null || scope.definition.cap !== null;
  if (!keeps && which === 'model') return; // memos of other models' objects are checked when the key scan meets them
  const client = binary(scope.client);
  const memos = await Promise.all(objects.map(([id]) => unlessWrongType(client.hGetAll(scope.keys.memo(id)), null)));
  const entries = objects.map(([id, values]) => entriesOf(scope, values, id));
  // the owner of each unique value, with one read per unique hash for the batch
  const uniques = entries.flat().filter((entry) => entry.kind === 'U');
  const owners = await readEntries(client, uniques);
  let next = 0;
  const owned = entries.map((list, i) =>
    list.map((entry) => {
      if (entry.kind !== 'U') return true;
      const owner = owners[next++];
      return owner !== null && latin1(owner as Buffer) === bytes(objects[i][0]);
    }),
  );
  objects.forEach(([id], i) => {
    const key = scope.keys.memo(id);
    const fix = { type: 'object', id, folds: [] } as const;
    const stored = memos[i];
    // the object's repair deletes it (the library owns `memo:` keys) and writes its memo again
    if (stored === null) return findings.add('wrongType', { id, key }, `memo of ${id} is not a hash`, fix);
    const memo = new Map(Object.entries(stored).map(([field, member]) => [field, latin1(member)]));
    if (!keeps && memo.size === 0) return; // gone since the key scan met it
    const wanted = new Map(entries[i].filter((_, at) => owned[i][at]).map((e) => [e.kind + e.key, e.member]));
    const wrong = [...memo].filter(([field, member]) => wanted.get(field) !== member).map(([field]) => field);
    const lacking = [...wanted].filter(([field, member]) => memo.get(field) !== member).map(([field]) => field);
    if (wrong.length + lacking.length === 0) return;
    findings.add(
      'memoMismatch',
      { id, key },
      `memo of ${id}: records ${wrong.length} entries it does not have, lacks ${lacking.length}`,
      fix,
    );
  });
}

import { foldCase } from '../model/index-descriptor';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { idsInOrder } from './ids-in-order';
import { raw, unlessWrongType } from './raw-commands';
import { scoresIn } from './batched-reads';
import { checkEntries } from './check-entries';
import { checkMemos } from './check-memos';
import { checkForeignKeys } from './check-foreign-keys';
import { isSequenceId, isValidId } from '../keys/id-format';
import { expiryReads } from './expiry-reads';

/**
 * Invariants 1, 3 (missing entries), 4, 5 and 6 (foreign keys), from the objects' side: streams through `all`
 * in id order (ids-in-order.ts, `batchSize` ids at a time), reads each batch's hashes and memos, and checks that
 * every entry the object's values call for exists with the right score or owner, that its memo records exactly
 * those entries, and that its foreign keys name live parents. Resolves to the largest sequence id seen. The
 * findings come in id order, so that repair() gives a unique value that several objects hold and none owns to
 * the first of them, as reindex() does.
 */
export async function checkObjects(scope: ModelScope, findings: Findings, batchSize: number): Promise<number> {
  let largestId = 0;
  for await (const batch of idsInOrder(scope, batchSize)) {
    findings.held(batch.length);
    await checkListed(scope, findings, batch);
    if (scope.definition.idStrategy !== 'sequence') continue;
    for (const id of batch) if (isSequenceId(id)) largestId = Math.max(largestId, Number(id));
  }
  return largestId;
}

/**
 * Checks objects whose ids are in `all`: one batch of the stream, or the objects a repair left with a violation
 * (repair-model.ts checks them again). A key that holds no hash is named (`wrongType`) and left as it is: it
 * may be another program's data. An id that is no valid id (`a:b`) is reported as `missingHash`: no object has
 * it, and its key is not read.
 */
export async function checkListed(scope: ModelScope, findings: Findings, listed: readonly string[]): Promise<void> {
  const client = raw(scope.client);
  // an id no object can have names no hash, whatever its key holds (`obj:a:b` is not an object): repair takes
  // it out of `all`, with the entries its memo records, and leaves the key as it is
  const ids = listed.filter((id) => isValidId(id));
  for (const id of listed) {
    if (!isValidId(id))
      findings.add('missingHash', { id }, `${JSON.stringify(id)} is in all, but is not a valid id: it names no object`, {
        type: 'object',
        id,
        folds: [],
      });
  }
  const hashes = await Promise.all(ids.map((id) => unlessWrongType(client.hGetAll(scope.keys.object(id)), null)));
  const live: Array<[string, Map<string, string>]> = [];
  const gone: string[] = [];
  const otherType: string[] = [];
  ids.forEach((id, i) => {
    const hash = hashes[i] as Record<string, string> | null;
    if (hash === null) otherType.push(id);
    else if (Object.keys(hash).length === 0) gone.push(id);
    else live.push([id, new Map(Object.entries(hash))]);
  });
  const types = await Promise.all(otherType.map((id) => client.type(scope.keys.object(id))));
  otherType.forEach((id, i) => {
    findings.add('wrongType', { id, key: scope.keys.object(id) }, `${id} is in all, but its key holds a ${types[i]}, not a hash`);
  });
  await checkGone(scope, findings, gone);
  await checkLive(scope, findings, live);
  await checkExpiry(scope, findings, live);
  await checkScores(
    scope,
    findings,
    live.map(([id]) => id),
  );
  findings.objects += live.length;
}

/** An id of decimal digits, which a model with sequence ids scores by its number. */
const DIGITS = /^\d+$/;

/**
 * In a model with sequence ids, `all` scores an id of digits by its number (as a double: an id past 2^53 - 1,
 * no sequence id, is scored by the nearest double) and any other id (a uuid written before the model took
 * sequence ids) 0, as every create and repair lists them: that is the order of `all`, by which queries
 * without `orderBy` list, page and cap objects. A model with uuids scores new ids 0, and keeps the scores of
 * sequence ids it listed before: any score of theirs is one of the two, so none is checked.
 */
async function checkScores(scope: ModelScope, findings: Findings, ids: readonly string[]): Promise<void> {
  if (scope.definition.idStrategy !== 'sequence') return;
  const all = scope.keys.all;
  const scores = await scoresIn(raw(scope.client), all, ids);
  ids.forEach((id, i) => {
    const wanted = DIGITS.test(id) ? Number(id) : 0;
    if (scores[i] === null || scores[i] === wanted) return; // null: removed since it was listed
    findings.add('wrongEntry', { id, key: all }, `${all}: ${id} scored ${scores[i]}, its id is scored ${wanted}`, {
      type: 'object',
      id,
      folds: [],
    });
  });
}

/**
 * A live object's `exp` entry follows its hash's TTL, as expire(), persist() and every save keep them: an object
 * whose hash expires has its entry (without it no sweep removes its entries once the hash is gone), and one
 * whose hash does not has none (a sweep takes such an entry out once it is due). The TTLs and the entries are
 * read in one transaction (expiry-reads.ts), so an expire() or persist() under way is seen whole or not at all.
 */
async function checkExpiry(scope: ModelScope, findings: Findings, objects: Array<[string, Map<string, string>]>): Promise<void> {
  const client = raw(scope.client);
  const exp = scope.keys.expiring;
  const { ttls, entries } = await expiryReads(
    scope,
    objects.map(([id]) => id),
  );
  objects.forEach(([id], i) => {
    const fix = { type: 'object', id, folds: [] } as const;
    // -2: the hash expired since it was read (gone, not a violation); -1: no TTL
    if (ttls[i] >= 0 && !entries[i]) {
      findings.add(
        'missingEntry',
        { id, key: exp },
        `${exp} lacks ${id}, whose hash expires in ${ttls[i]} ms: no sweep would remove its entries`,
        fix,
      );
    } else if (ttls[i] === -1 && entries[i]) {
      findings.add('wrongEntry', { id, key: exp }, `${exp} holds ${id}, whose hash does not expire`, fix);
    }
  });
  // In a model with a ttl or a cap every object keeps a memo (checkMemos); in another, an object whose hash
  // expires keeps one too, which the key scan checks when it meets it: one it does not meet is checked here.
  if (scope.definition.ttlMs !== null || scope.definition.cap !== null) return;
  const expiring = objects.filter((_, i) => ttls[i] >= 0);
  const memos = await Promise.all(expiring.map(([id]) => client.exists(scope.keys.memo(id))));
  await checkMemos(
    scope,
    findings,
    expiring.filter((_, i) => Number(memos[i]) === 0),
    'expiring',
  );
}

/** Ids in `all` without a hash: fine when their `exp` entry says they expired (the sweep deletes them). */
async function checkGone(scope: ModelScope, findings: Findings, ids: string[]): Promise<void> {
  const expiring = await scoresIn(raw(scope.client), scope.keys.expiring, ids);
  ids.forEach((id, i) => {
    if (expiring[i] === null) findings.add('missingHash', { id }, `${id} is in all but has no hash`, { type: 'object', id, folds: [] });
  });
}

async function checkLive(scope: ModelScope, findings: Findings, objects: Array<[string, Map<string, string>]>): Promise<void> {
  const { definition, keys } = scope;
  const folds = new Map<string, Array<[string, string, string]>>();
  for (const [id, values] of objects) {
    if (values.get('#id') !== id)
      findings.add('orphanHash', { id, key: keys.object(id) }, `hash of ${id} holds #id ${JSON.stringify(values.get('#id'))}`, {
        type: 'object',
        id,
        folds: [],
      });
    for (const index of definition.indexes) {
      if (index.kind !== 'unique' || !index.caseInsensitive) continue;
      const field = `#ci:${index.attribute}`;
      const value = values.get(index.attribute);
      const folded = value === undefined ? undefined : foldCase(value);
      if (values.get(field) === folded) continue;
      if (!folds.has(id)) folds.set(id, []);
      folds.get(id)!.push([index.attribute, value ?? '', folded ?? '']);
      findings.add(
        'wrongEntry',
        { id, key: keys.object(id) },
        `${field} of ${id} is ${JSON.stringify(values.get(field))}, its value folds to ${JSON.stringify(folded)}`,
        {
          type: 'object',
          id,
          folds: folds.get(id)!,
        },
      );
      if (folded === undefined) values.delete(field);
      else values.set(field, folded);
    }
  }
  await checkEntries(scope, findings, objects, folds);
  await checkMemos(scope, findings, objects);
  await checkForeignKeys(scope, findings, objects);
}

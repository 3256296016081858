import { bytes, entriesOf, entryOf, ExpectedEntry, withFolds } from './expected-entries';
import { foldCase } from '../model/index-descriptor';
import { Findings } from './findings';
import { ModelScope, relatedScope } from './model-scope';
import { idsInOrder } from './ids-in-order';
import { binary, latin1, raw, RawCommands, unlessWrongType } from './raw-commands';
import { membershipsIn, scoresIn, valuesIn } from './batched-reads';
import { isSequenceId, isValidId } from '../keys/id-format';
import { expiryReads } from './expiry-reads';

const show = (member: string) => JSON.stringify(Buffer.from(member, 'latin1').toString('utf8')).slice(0, 80);

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

async function checkEntries(
  scope: ModelScope,
  findings: Findings,
  objects: Array<[string, Map<string, string>]>,
  folds: Map<string, Array<[string, string, string]>>,
): Promise<void> {
  const wanted: Array<[string, ExpectedEntry]> = objects.flatMap(([id, values]) =>
    entriesOf(scope, values, id).map((e) => [id, e] as [string, ExpectedEntry]),
  );
  const found = await readEntries(
    binary(scope.client),
    wanted.map(([, entry]) => entry),
  );
  const wrongOwners: Array<[string, ExpectedEntry, string]> = [];
  const valuesOf = new Map(objects);
  wanted.forEach(([id, entry], i) => {
    const fix = { type: 'object', id, folds: folds.get(id) ?? [] } as const;
    const reply = found[i];
    const where = { id, key: entry.key };
    if (entry.kind === 'S') {
      if (reply !== true) findings.add('missingEntry', where, `${entry.key} lacks ${id}`, fix);
    } else if (entry.kind === 'Z') {
      if (Number.isNaN(entry.score)) {
        const value = show(bytes(valuesOf.get(id)?.get(entry.index.attribute) ?? ''));
        findings.add(
          'wrongEntry',
          where,
          `${entry.index.attribute} of ${id} holds ${value}, not a stored number: ${entry.key} cannot hold it`,
          fix,
        );
      } else if (reply === null) findings.add('missingEntry', where, `${entry.key} lacks ${show(entry.member)}`, fix);
      else if (Number(String(reply)) !== entry.score)
        findings.add('wrongEntry', where, `${entry.key}: ${id} scored ${reply}, its value is ${entry.score}`, fix);
    } else if (reply === null) {
      findings.add('missingEntry', where, `${entry.key} lacks ${show(entry.member)} -> ${id}`, fix);
    } else if (latin1(reply as unknown as Buffer) !== bytes(id)) {
      wrongOwners.push([id, entry, latin1(reply as unknown as Buffer)]);
    }
  });
  await checkOwners(scope, findings, wrongOwners, folds);
}

/** What an expected entry's key holds for it (readEntries). */
type EntryReply = boolean | number | string | Buffer | null;

/**
 * What each expected entry's key holds for it: whether the set has the member (S), the member's score (Z) or
 * the object the unique value maps to (U), null when the key lacks it or holds another type (the key scan
 * names such a key). One read per key and kind for all the entries of a batch (batched-reads.ts).
 */
async function readEntries(client: RawCommands, entries: readonly ExpectedEntry[]): Promise<EntryReply[]> {
  const found = new Array<EntryReply>(entries.length);
  const byKey = new Map<string, { kind: ExpectedEntry['kind']; key: string; at: number[]; members: Buffer[] }>();
  entries.forEach((entry, at) => {
    let group = byKey.get(entry.kind + entry.key);
    if (!group) byKey.set(entry.kind + entry.key, (group = { kind: entry.kind, key: entry.key, at: [], members: [] }));
    group.at.push(at);
    group.members.push(Buffer.from(entry.member, 'latin1'));
  });
  await Promise.all(
    [...byKey.values()].map(async ({ kind, key, at, members }) => {
      const read: Promise<EntryReply[]> =
        kind === 'S' ? membershipsIn(client, key, members) : kind === 'Z' ? scoresIn(client, key, members) : valuesIn(client, key, members);
      const replies = (await unlessWrongType(read, null)) ?? members.map(() => null);
      at.forEach((position, i) => (found[position] = replies[i]));
    }),
  );
  return found;
}

/**
 * A unique value mapped to another object: a duplicate if that one holds it too (judged from its stored value,
 * folded for a case-insensitive index: withFolds), else a wrong owner.
 */
async function checkOwners(
  scope: ModelScope,
  findings: Findings,
  wrong: Array<[string, ExpectedEntry, string]>,
  folds: Map<string, Array<[string, string, string]>>,
): Promise<void> {
  const client = raw(scope.client);
  const held = await Promise.all(
    wrong.map(async ([, entry, owner]) => {
      const attribute = entry.index.attribute;
      const [value, listed] = await Promise.all([
        unlessWrongType(client.hGet(scope.keys.object(owner), attribute), null),
        client.zScore(scope.keys.all, owner),
      ]);
      if (listed === null || value === null) return false;
      return entryOf(scope, entry.index, withFolds(scope, new Map([[attribute, value]])), owner)?.member === entry.member;
    }),
  );
  wrong.forEach(([id, entry, owner], i) => {
    const value = show(entry.member);
    if (held[i]) {
      findings.add('duplicateUnique', { id, key: entry.key }, `${id} holds ${value}, which ${owner} holds and owns too`);
    } else {
      findings.add(
        'uniqueOwner',
        { id: owner, key: entry.key },
        `${entry.key}: ${value} -> ${owner}, which does not hold it (${id} does)`,
        {
          type: 'object',
          id,
          folds: folds.get(id) ?? [],
        },
        `uniqueOwner ${entry.key} ${entry.member}`,
      );
    }
  });
}

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

async function checkForeignKeys(scope: ModelScope, findings: Findings, objects: Array<[string, Map<string, string>]>): Promise<void> {
  const client = raw(scope.client);
  for (const relation of scope.definition.relations) {
    if (relation.kind !== 'belongsTo') continue;
    const parent = relatedScope(scope, relation.target);
    if (!parent) continue;
    const pointing = objects.filter(([, values]) => values.has(relation.foreignKey));
    const parentIds = pointing.map(([, values]) => values.get(relation.foreignKey)!);
    const [ownIds, listed] = await Promise.all([
      // a key of another type is no parent
      Promise.all(parentIds.map((parentId) => unlessWrongType(client.hGet(parent.keys.object(parentId), '#id'), null))),
      scoresIn(client, parent.keys.all, parentIds),
    ]);
    // a parent whose hash fell out of `all` but names itself (#id) is the parent model's orphanHash, which its
    // repair lists again: the foreign key still names it, and is not reported (nor nullified) here
    const alive = parentIds.map(
      (parentId, i) => ownIds[i] !== null && ownIds[i] !== undefined && (listed[i] !== null || ownIds[i] === parentId),
    );
    pointing.forEach(([id, values], i) => {
      if (alive[i]) return;
      const parentId = values.get(relation.foreignKey)!;
      findings.add(
        'danglingForeignKey',
        { id, key: scope.keys.object(id) },
        `${relation.foreignKey} ${parentId} names no live ${relation.target}`,
        {
          type: 'foreignKey',
          id,
          foreignKey: relation.foreignKey,
          parent,
          parentId,
        },
      );
    });
  }
}

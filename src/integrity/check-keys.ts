import { indexName, StoredIndex } from '../schema/stored-definition';
import { indexOfKeyName } from '../schema/index-key-name';
import { entriesFor, idOfLexMember, indexFields, isOwnMemoEntry, withFolds } from './expected-entries';
import { idOfCompoundMember } from '../keys/compound-member';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { binary, chunks, globEscape, isWrongType, latin1, raw, unlessWrongType } from './raw-commands';
import { scoresIn, scoresWhere } from './batched-reads';
import { isSequenceId, isValidId } from '../keys/id-format';
import { shardOfId } from '../keys/shard-tags';
import { checkMembershipKey } from './check-memberships';
import { checkMemos } from './check-memos';
import { CapCount, isCapIndex, reportOverCap } from './check-cap';

const show = (member: string) => JSON.stringify(Buffer.from(member, 'latin1').toString('utf8')).slice(0, 80);

/**
 * The keys' side of the invariants: streams through every key of the model scope (SCAN `<base>:*`, never KEYS)
 * and through each index key's members (SSCAN, ZSCAN, HSCAN), `batchSize` at a time. Finds hashes not in `all`,
 * memos of objects that are gone, index entries naming missing objects or the wrong value, unique values owned
 * by an object that does not hold them, keys of no declared index, and one-sided memberships.
 */
export async function checkKeys(scope: ModelScope, findings: Findings, batchSize: number): Promise<void> {
  const base = scope.keys.base;
  for await (const page of raw(scope.client).scanIterator({ MATCH: `${globEscape(base)}:*`, COUNT: batchSize })) {
    const hashes: string[] = [];
    const memos: string[] = [];
    for (const key of page) {
      const rest = key.slice(base.length + 1);
      if (
        rest === 'seq' ||
        rest === 'all' ||
        rest === 'exp' ||
        rest.startsWith('tmp:') ||
        rest.startsWith('lock:') ||
        rest.startsWith('idem:')
      )
        continue;
      if (rest.startsWith('obj:')) hashes.push(rest.slice(4));
      else if (rest.startsWith('memo:')) memos.push(rest.slice(5));
      else if (rest.startsWith('rel:') || rest.startsWith('rev:')) await checkMembershipKey(scope, findings, key, rest, batchSize);
      else await checkIndexKey(scope, findings, key, rest, batchSize);
    }
    await checkUnlisted(scope, findings, hashes, memos);
  }
}

async function checkUnlisted(scope: ModelScope, findings: Findings, hashes: string[], memos: string[]): Promise<void> {
  const client = raw(scope.client);
  const listed = await scoresIn(client, scope.keys.all, [...hashes, ...memos]);
  // a key whose id is no valid id holds no object, even while `all` lists that id (the objects' side reports
  // the id as `missingHash`, and repair takes it out of `all`): named here either way, so that a repair's `left`
  // names it at once
  await checkOrphans(
    scope,
    findings,
    hashes.filter((id, i) => listed[i] === null || !isValidId(id)),
  );
  const keeps = scope.definition.ttlMs !== null || scope.definition.cap !== null;
  const listedMemos = memos.filter((_, i) => listed[hashes.length + i] !== null);
  if (!keeps && listedMemos.length > 0) {
    // Objects given a TTL by expire() in a model without ttl or cap: their memos are checked here, not per object.
    const hashesOf = await Promise.all(listedMemos.map((id) => unlessWrongType(client.hGetAll(scope.keys.object(id)), {})));
    const objects = listedMemos.map(
      (id, i) => [id, new Map(Object.entries(hashesOf[i] as Record<string, string>))] as [string, Map<string, string>],
    );
    await checkMemos(
      scope,
      findings,
      objects.filter(([, values]) => values.size > 0),
      'met',
    );
  }
  const unlisted = memos.filter((_, i) => listed[hashes.length + i] === null);
  const foreign = await foreignEntries(scope, unlisted);
  unlisted.forEach((id, i) => {
    const key = scope.keys.memo(id);
    const others =
      foreign[i] > 0
        ? `; records ${foreign[i]} entr${foreign[i] === 1 ? 'y' : 'ies'} that cannot be its object's (another key or member), left as they are`
        : '';
    findings.add('memoMismatch', { id, key }, `memo of ${id}, which is not in all${others}`, { type: 'object', id, folds: [] });
  });
}

/**
 * How many entries each memo records that cannot be its object's (isOwnMemoEntry: a key that is not one of the
 * model's index keys, or another object's member). Its repair drops the others and deletes the memo: these are
 * left as they are (a memo is written by hand or by another program to record them).
 */
async function foreignEntries(scope: ModelScope, ids: string[]): Promise<number[]> {
  const client = binary(scope.client);
  const memos = await Promise.all(ids.map((id) => unlessWrongType(client.hGetAll(scope.keys.memo(id)), {})));
  return ids.map(
    (id, i) => Object.entries(memos[i]).filter(([field, member]) => !isOwnMemoEntry(scope.keys.base, field, latin1(member), id)).length,
  );
}

/**
 * Keys `<base>:obj:<id>` whose id is not in `all` (or is no valid id). A hash naming itself (`#id`) is listed
 * again by repair, one naming another id deleted. Left as they are, as they may be another program's data: a
 * key holding another type than a hash (`wrongType`), a key whose id is no valid id (not an object), in a
 * sequence model a hash whose id is not a sequence number (1 to 2^53 - 1: the model's `all` lists sequence ids
 * only), and in a shard of a sharded sequence model a hash whose id another shard's sequence draws. A hash listed again raises the
 * sequence to its id in the same step (repair-object.lua), so no create takes that id again.
 */
async function checkOrphans(scope: ModelScope, findings: Findings, ids: string[]): Promise<void> {
  const client = raw(scope.client);
  const types = await Promise.all(ids.map((id) => client.type(scope.keys.object(id))));
  const ownIds = await Promise.all(ids.map((id, i) => (types[i] === 'hash' ? client.hGet(scope.keys.object(id), '#id') : null)));
  const shard = scope.keys.shard;
  const sequence = scope.definition.idStrategy === 'sequence';
  ids.forEach((id, i) => {
    const key = scope.keys.object(id);
    const fix = { type: 'object', id, folds: [] } as const;
    // a sequence id names its shard: one drawn by another shard's sequence is not this shard's to list
    const ownShard = sequence && shard && isSequenceId(id) ? shardOfId(id, shard.count, true) : undefined;
    if (types[i] === 'none') return; // deleted since the scan
    if (types[i] !== 'hash') findings.add('wrongType', { id, key }, `${key} holds a ${types[i]}, not a hash`);
    else if (!isValidId(id)) findings.add('orphanHash', { id, key }, `${key} is no object: ${JSON.stringify(id)} is not a valid id`);
    else if (ownIds[i] !== id)
      findings.add('orphanHash', { id, key }, `hash of ${id} is not in all, and holds #id ${JSON.stringify(ownIds[i])}`, fix);
    else if (sequence && !isSequenceId(id))
      findings.add('orphanHash', { id, key }, `hash of ${id} is not in all, where a sequence model lists sequence ids only`);
    else if (shard && ownShard !== undefined && ownShard !== shard.index) {
      findings.add(
        'orphanHash',
        { id, key },
        `hash of ${id} is not in all, and ${id} is an id of shard ${ownShard}, not of shard ${shard.index}`,
      );
    } else findings.add('orphanHash', { id, key }, `hash of ${id} is not in all`, fix);
  });
}

async function checkIndexKey(scope: ModelScope, findings: Findings, key: string, rest: string, batchSize: number): Promise<void> {
  const index = indexOfKeyName(scope.definition, rest);
  if (!index) {
    const isIndexKey = index === undefined;
    findings.add(
      'unknownKey',
      { key },
      `${key}: ${isIndexKey ? 'a key of no declared index (a dropped index?)' : 'a key outside the layout'}`,
      isIndexKey ? { type: 'unlink', key } : undefined,
    );
    return;
  }
  const client = binary(scope.client);
  try {
    if (index.kind === 'set' || index.kind === 'tag') {
      for await (const page of client.sScanIterator(key, { COUNT: batchSize })) {
        for (const batch of chunks(page.map(latin1), batchSize))
          await checkMembers(
            scope,
            findings,
            index,
            key,
            batch.map((m) => [m, m]),
          );
      }
    } else if (index.kind === 'unique') {
      for await (const page of client.hScanIterator(key, { COUNT: batchSize })) {
        for (const batch of chunks(page, batchSize))
          await checkMembers(
            scope,
            findings,
            index,
            key,
            batch.map((e) => [latin1(e.field), latin1(e.value)]),
          );
      }
    } else {
      // the key a cap trims: its live objects are counted, against the cap's keep
      const capped = isCapIndex(scope.definition, index) ? new CapCount(scope.definition.cap!.keep) : undefined;
      for await (const page of client.zScanIterator(key, { COUNT: batchSize })) {
        for (const batch of chunks(page, batchSize)) {
          const members = batch.map((m) => latin1(m.value));
          await checkMembers(
            scope,
            findings,
            index,
            key,
            members.map((m) => [m, memberId(index, m)]),
            capped,
          );
        }
      }
      if (capped) await reportOverCap(scope, findings, key, capped);
    }
  } catch (error) {
    if (!isWrongType(error)) throw error;
    // the first scan call fails, before any member is checked. Repair deletes the key (the library owns index
    // keys) before it rebuilds the objects' entries, which the objects' side reports missing.
    const wanted = index.kind === 'set' || index.kind === 'tag' ? 'set' : index.kind === 'unique' ? 'hash' : 'zset';
    findings.add(
      'wrongType',
      { key },
      `${key} holds a ${await raw(scope.client).type(key)}, not the ${wanted} of index ${indexName(index)}`,
      { type: 'unlink', key },
    );
  }
}

/**
 * Each [member, id it names]: the object must be live and call for exactly this entry. The live objects named
 * are counted in `capped` for the key a cap trims. A case-insensitive unique
 * value is judged from the object's stored value, folded (withFolds), not from its `#ci:` field.
 */
async function checkMembers(
  scope: ModelScope,
  findings: Findings,
  index: StoredIndex,
  key: string,
  members: Array<[string, string]>,
  capped?: CapCount,
): Promise<void> {
  findings.held(members.length);
  const client = raw(scope.client);
  const fields = [...indexFields(index), '#id'];
  const ids = members.map(([, id]) => Buffer.from(id, 'latin1').toString('utf8'));
  const valid = ids.map((id) => isValidId(id));
  // each valid id's `all` score with one read for the batch, beside its hash's fields (a key of another type
  // than a hash is no object)
  const [values, scores] = await Promise.all([
    Promise.all(ids.map((id, i) => (valid[i] ? unlessWrongType(client.hmGet(scope.keys.object(id), fields), []) : []))),
    scoresWhere(client, scope.keys.all, ids, valid),
  ]);
  const states = ids.map((_, i) => ({ values: values[i] as Array<string | null>, listed: scores[i] }));
  // Listed without a hash: an expired object awaiting its sweep when `exp` has it (read for those only).
  const hashless = states.map(({ values, listed }) => listed !== null && values[fields.length - 1] === null);
  const expiring = await scoresWhere(client, scope.keys.expiring, ids, hashless);
  const fix = (member: string) => ({ type: 'entries', index, key, members: [member] }) as const;
  members.forEach(([member], i) => {
    const id = ids[i];
    const { values, listed } = states[i];
    const exists = values.length > 0 && values[values.length - 1] !== null;
    const label = index.kind === 'unique' ? `${show(member)} -> ${id}` : show(member);
    if (!exists || listed === null) {
      if (listed !== null && expiring[i] !== null) return; // expired, awaiting its sweep (its memo records the entry)
      const kind = index.kind === 'unique' ? 'uniqueOwner' : 'danglingEntry';
      findings.add(kind, { id, key }, `${key}: ${label} names no live object`, fix(member), `${kind} ${key} ${member}`);
      return;
    }
    capped?.add(id);
    const stored = new Map<string, string>();
    fields.forEach((field, f) => values[f] !== null && stored.set(field, values[f] as string));
    const wanted = entriesFor(scope, index, withFolds(scope, stored), id);
    const matches = wanted.some((entry) => entry.key === key && entry.member === member);
    if (matches) return;
    if (index.kind === 'unique') {
      findings.add('uniqueOwner', { id, key }, `${key}: ${label}, which ${id} does not hold`, fix(member), `uniqueOwner ${key} ${member}`);
    } else {
      findings.add('wrongEntry', { id, key }, `${key}: ${label} does not match the value of ${id}`, fix(member));
    }
  });
}

/** The id a sorted index's member names (latin1): a lex or compound member's tail, else the member itself. */
function memberId(index: StoredIndex, member: string): string {
  if (index.kind === 'lex') return idOfLexMember(member) ?? '';
  if (index.kind === 'compound') return idOfCompoundMember(Buffer.from(member, 'latin1')) ?? '';
  return member;
}

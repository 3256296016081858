import { RESP_TYPES } from 'redis';
import { caseFoldField, compositeParts, compositeValue, IndexDescriptor } from '../../src/model/index-descriptor';
import { descriptorOf } from '../../src/model/model-registry';
import { RawClient } from './test-redis';

/**
 * Invariants 3 and 4 of docs/design, checked exactly against what is stored. The expected index keys are
 * computed from every live object's hash (what the model's indexes should hold), then compared with every
 * index key actually found (SCAN, never KEYS):
 *   - set index      <base>:idx:<attr>:<value>          exactly the ids of the live objects holding value
 *                    <base>:nil:<attr>                  exactly the ids of the live objects without a value
 *   - score index    <base>:idx:<attr>[@<scope>:<sv>]   exactly the live objects (of that scope value), scored
 *                                                        by their value, +inf when it is absent
 *   - lex index      <base>:lex:<attr>[@<scope>:<sv>]   members esc(value) \0\0 len(id) id (absent: \xFF ...), score 0
 *   - unique         <base>:uniq:<attr>                 value (lower-cased for caseInsensitive) -> the one live
 *                                                        object holding it
 * An index entry that points to a dead object, or to one whose value differs, shows as an unexpected member;
 * an indexed value without its entry as a missing one. Objects without a scope value are in no scoped index.
 * Invariants 1 and 2 (`all` and the hashes agree) are checked too, since "live" depends on them, and any
 * other key under the model (such as a query's temporary key) is reported, except relation keys (`<base>:rel:*`,
 * `<base>:rev:*`: many-to-many memberships, which tests/support/relation-consistency.ts checks). The base is the
 * model's own (`{<Model>}`, `{<group>}:<Model>`, or a tenant scope's `{<tenant>/...}` when given its class).
 * An object whose hash has expired
 * but which is not swept yet (in `all` and in `exp`) is invisible: the entries its memo records are tolerated.
 * A live object's memo (`<base>:memo:<id>`, objects with a TTL) must record exactly the entries it has.
 */

export interface ConsistencyReport {
  /** Human-readable differences; empty when every invariant holds. */
  readonly violations: string[];
  /** Live objects seen (in `all` and with a hash). */
  readonly objects: number;
  /** Index and unique keys compared. */
  readonly indexKeys: number;
  /** Index entries (set members, zset members, unique fields) compared. */
  readonly entries: number;
}

export interface CheckOptions {
  /** The key base to check: one shard of a sharded model (default: the model's only base). */
  base?: string;
  /** Temporary query keys (`<base>:tmp:<n>`) are violations unless this is set. */
  readonly allowTemporaryKeys?: boolean;
}

type Expected =
  | { readonly type: 'set'; readonly members: Set<string> }
  | { readonly type: 'score'; readonly members: Map<string, number> }
  | { readonly type: 'lex'; readonly members: Set<string> }
  | { readonly type: 'unique'; readonly fields: Map<string, string> };

const ESCAPED_ZERO = Buffer.from([0, 1]);
const ABSENT = Buffer.from([0xff]);

/** The member a lex index holds for (value, id), byte for byte as indexes.lua builds it. */
export function lexMember(value: string | undefined, id: string): Buffer {
  const tail = Buffer.concat([Buffer.from([0, 0, Buffer.byteLength(id)]), Buffer.from(id)]);
  if (value === undefined) return Buffer.concat([ABSENT, tail]);
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      parts.push(bytes.subarray(start, i), ESCAPED_ZERO);
      start = i + 1;
    }
  }
  parts.push(bytes.subarray(start), tail);
  return Buffer.concat(parts);
}

const show = (member: string) => JSON.stringify(Buffer.from(member, 'latin1').toString('utf8')).slice(0, 120);

function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

function sortedKeyOf(base: string, index: IndexDescriptor, hash: Map<string, string>): string | undefined {
  const key = `${base}:${index.kind === 'lex' ? 'lex' : 'idx'}:${index.attribute.field}`;
  if (!index.scope) return key;
  const stored = hash.get(index.scope.field);
  // as an index value a number's -0 is 0 (indexes.lua's canonical)
  const scopeValue = stored === '-0' && index.scope.type === 'number' ? '0' : stored;
  return scopeValue === undefined ? undefined : `${key}@${index.scope.field}:${scopeValue}`;
}

/** Reads every object, index and unique key of the model under `prefix` and reports every difference. */
export async function checkIndexConsistency(
  modelClass: Function,
  raw: RawClient,
  prefix: string,
  options: CheckOptions = {},
): Promise<ConsistencyReport> {
  const model = descriptorOf(modelClass);
  const base = options.base ?? model.keys(prefix).base;
  const violations: string[] = [];
  const binary = raw.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${globEscape(base)}:*`, COUNT: 1000 })) keys.push(...batch);

  const objectKeys = new Map<string, string>();
  const memoKeys = new Map<string, string>();
  const indexKeys: string[] = [];
  for (const key of keys) {
    const rest = key.slice(base.length + 1);
    if (rest === 'seq' || rest === 'all' || rest === 'exp') continue;
    if (rest.startsWith('obj:')) objectKeys.set(rest.slice(4), key);
    else if (rest.startsWith('memo:')) memoKeys.set(rest.slice(5), key);
    else if (rest.startsWith('idx:') || rest.startsWith('lex:') || rest.startsWith('uniq:') || rest.startsWith('nil:')) indexKeys.push(key);
    else if (rest.startsWith('tmp:') && options.allowTemporaryKeys) continue;
    else if (rest.startsWith('rel:') || rest.startsWith('rev:')) continue;
    else violations.push(`unexpected key ${JSON.stringify(key)}`);
  }

  // Invariants 1 and 2: the live objects are the ids of `all` that have their hash.
  const listed = await raw.zRangeWithScores(`${base}:all`, 0, -1);
  const allIds = new Set(listed.map(({ value }) => value));
  if (model.idStrategy === 'sequence') {
    // a sequence model scores an id of digits by its number, any other id 0
    for (const { value, score } of listed) {
      const wanted = /^\d+$/.test(value) ? Number(value) : 0;
      if (score !== wanted) violations.push(`all scores ${value} ${score}, not ${wanted}`);
    }
  }
  const expiring = new Set(await raw.zRange(`${base}:exp`, 0, -1));
  const expired: string[] = [];
  for (const id of allIds) {
    if (objectKeys.has(id)) continue;
    if (expiring.has(id)) expired.push(id);
    else violations.push(`${id} is in all but has no hash (and no expiry)`);
  }
  for (const id of objectKeys.keys()) if (!allIds.has(id)) violations.push(`hash of ${id} is not in all`);
  for (const id of memoKeys.keys()) if (!allIds.has(id)) violations.push(`memo of ${id}, which is not in all`);
  /** Memo records ('S'|'Z'|'U' + key -> the member's bytes as latin1) per object: what a live one's memo must hold. */
  const entriesOf = new Map<string, Map<string, string>>();
  const record = (id: string, kind: string, key: string, member: string) => {
    let entries = entriesOf.get(id);
    if (!entries) entriesOf.set(id, (entries = new Map()));
    entries.set(kind + key, member);
  };
  const liveIds = [...allIds].filter((id) => objectKeys.has(id));
  const hashes = await Promise.all(liveIds.map((id) => raw.hGetAll(`${base}:obj:${id}`)));
  // A live object is in `exp` exactly when its hash has a TTL (-2: it expired since it was listed).
  const ttls = await Promise.all(liveIds.map((id) => raw.pTTL(`${base}:obj:${id}`)));
  liveIds.forEach((id, i) => {
    if (ttls[i] > 0 && !expiring.has(id)) violations.push(`hash of ${id} expires in ${ttls[i]} ms, but exp lacks ${id}`);
    if (ttls[i] === -1 && expiring.has(id)) violations.push(`exp holds ${id}, whose hash does not expire`);
  });

  // What the indexes must hold, computed from the stored values alone.
  const expected = new Map<string, Expected>();
  const want = (key: string, type: Expected['type']): Expected => {
    const existing = expected.get(key);
    if (existing) {
      if (existing.type !== type) violations.push(`two indexes need the key ${key} (${existing.type} and ${type})`);
      return existing;
    }
    const entry: Expected =
      type === 'score' ? { type, members: new Map() } : type === 'unique' ? { type, fields: new Map() } : { type, members: new Set() };
    expected.set(key, entry);
    return entry;
  };
  liveIds.forEach((id, i) => {
    const hash = new Map(Object.entries(hashes[i] as Record<string, string>));
    if (hash.get('#id') !== id) violations.push(`hash of ${id} holds #id ${JSON.stringify(hash.get('#id'))}`);
    for (const index of model.indexes) {
      const field = index.attribute.field;
      const value = hash.get(field);
      if (index.kind === 'set') {
        const key = value === undefined ? `${base}:nil:${field}` : `${base}:idx:${field}:${value}`;
        (want(key, 'set') as { members: Set<string> }).members.add(id);
        record(id, 'S', key, Buffer.from(id).toString('latin1'));
      } else if (index.kind === 'unique') {
        // a composite unique's value is made of its parts' values (index-descriptor.ts, indexes.lua)
        let held = index.parts ? compositeValue(compositeParts(index), (part) => hash.get(part)) : value;
        if (index.caseInsensitive) {
          held = hash.get(caseFoldField(field));
          const folded = value === undefined ? undefined : value.toLowerCase();
          if (held !== folded) {
            violations.push(`${id}: ${caseFoldField(field)} is ${JSON.stringify(held)}, expected ${JSON.stringify(folded)}`);
          }
        }
        if (held === undefined) continue;
        if (held === '-0' && index.attribute.type === 'number') held = '0'; // a number's index value: -0 is 0
        record(id, 'U', `${base}:uniq:${field}`, Buffer.from(held).toString('latin1'));
        const fields = (want(`${base}:uniq:${field}`, 'unique') as { fields: Map<string, string> }).fields;
        const other = fields.get(held);
        if (other !== undefined) violations.push(`unique ${field} ${JSON.stringify(held)} is held by both ${other} and ${id}`);
        else fields.set(held, id);
      } else {
        const key = sortedKeyOf(base, index, hash);
        if (key === undefined) continue; // no scope value: in no scoped index
        if (index.kind === 'score') {
          const score = value === undefined ? Infinity : Number(value);
          (want(key, 'score') as { members: Map<string, number> }).members.set(id, score);
          record(id, 'Z', key, Buffer.from(id).toString('latin1'));
        } else {
          const member = lexMember(value, id).toString('latin1');
          (want(key, 'lex') as { members: Set<string> }).members.add(member);
          record(id, 'Z', key, member);
        }
      }
    }
  });

  // Memos: exact for live objects; for expired ones, what they record is tolerated until the sweep.
  const readMemo = async (id: string) => {
    const stored = (await binary.hGetAll(memoKeys.get(id)!)) as unknown as Record<string, Buffer>;
    return new Map(Object.entries(stored).map(([field, member]) => [field, Buffer.from(member).toString('latin1')]));
  };
  const tolerated = new Map<string, Set<string>>();
  for (const id of expired) {
    if (!memoKeys.has(id)) continue;
    for (const [field, member] of await readMemo(id)) {
      const key = field.slice(1);
      if (!tolerated.has(key)) tolerated.set(key, new Set());
      tolerated.get(key)!.add(field[0] === 'U' ? Buffer.from(member, 'latin1').toString('utf8') : member);
    }
  }
  for (const id of liveIds) {
    if (!memoKeys.has(id)) continue;
    const memo = await readMemo(id);
    const wanted = entriesOf.get(id) ?? new Map<string, string>();
    for (const [field, member] of memo) {
      if (wanted.get(field) !== member) violations.push(`memo of ${id} records ${show(field)} -> ${show(member)}, which it does not have`);
    }
    for (const [field, member] of wanted) {
      if (memo.get(field) !== member) violations.push(`memo of ${id} lacks ${show(field)} -> ${show(member)}`);
    }
  }
  const isTolerated = (key: string, member: string) => tolerated.get(key)?.has(member) ?? false;

  // What they hold.
  let entries = 0;
  const compareMembers = (key: string, what: string, actual: Set<string>, wanted: Set<string>, label = (m: string) => m) => {
    entries += actual.size;
    for (const member of actual) {
      if (!wanted.has(member) && !isTolerated(key, member)) {
        violations.push(`${key}: unexpected ${what} ${label(member)}`);
      }
    }
    for (const member of wanted) if (!actual.has(member)) violations.push(`${key}: missing ${what} ${label(member)}`);
  };
  await Promise.all(
    indexKeys.map(async (key) => {
      const wanted = expected.get(key);
      const type = await raw.type(key);
      if (!wanted) {
        if (!tolerated.has(key)) violations.push(`${key}: a ${type} no live object needs`);
        return;
      }
      const redisType = wanted.type === 'set' ? 'set' : wanted.type === 'unique' ? 'hash' : 'zset';
      if (type !== redisType) {
        violations.push(`${key}: a ${type}, expected a ${redisType}`);
        return;
      }
      if (wanted.type === 'set') {
        compareMembers(key, 'id', new Set(await raw.sMembers(key)), wanted.members);
      } else if (wanted.type === 'unique') {
        const stored = new Map(Object.entries(await raw.hGetAll(key)));
        entries += stored.size;
        for (const [value, owner] of stored) {
          const holder = wanted.fields.get(value);
          if (holder === undefined) {
            if (!isTolerated(key, value)) violations.push(`${key}: ${JSON.stringify(value)} -> ${owner}, but no live object holds it`);
          } else if (holder !== owner) violations.push(`${key}: ${JSON.stringify(value)} -> ${owner}, but ${holder} holds it`);
        }
        for (const [value, holder] of wanted.fields) {
          if (!stored.has(value)) violations.push(`${key}: missing ${JSON.stringify(value)} -> ${holder}`);
        }
      } else if (wanted.type === 'score') {
        const stored = await raw.zRangeWithScores(key, 0, -1);
        compareMembers(key, 'id', new Set(stored.map((m) => m.value)), new Set(wanted.members.keys()));
        for (const { value: id, score } of stored) {
          const want = wanted.members.get(id);
          if (want !== undefined && want !== score) violations.push(`${key}: ${id} scored ${score}, its value is ${want}`);
        }
      } else {
        const stored = await binary.zRangeWithScores(key, 0, -1);
        const members = new Set<string>();
        for (const { value, score } of stored) {
          const member = Buffer.from(value as unknown as Buffer).toString('latin1');
          members.add(member);
          if (score !== 0) violations.push(`${key}: member ${show(member)} scored ${score}, lex members score 0`);
        }
        compareMembers(key, 'member', members, wanted.members, show);
      }
    }),
  );
  const found = new Set(indexKeys);
  for (const [key, wanted] of expected) {
    if (!found.has(key)) violations.push(`${key}: missing ${wanted.type} index key`);
  }
  violations.sort();
  return { violations, objects: liveIds.length, indexKeys: indexKeys.length, entries };
}

/** Asserts invariants 3 and 4 (and 1, 2, no stray keys) for the model; returns the report for further checks. */
export async function expectIndexesConsistent(
  modelClass: Function,
  raw: RawClient,
  prefix: string,
  options: CheckOptions = {},
): Promise<ConsistencyReport> {
  const report = await checkIndexConsistency(modelClass, raw, prefix, options);
  expect(report.violations.slice(0, 30)).toEqual([]);
  return report;
}

/** expectIndexesConsistent for every shard of a sharded model (each shard is a model of its own on disk). */
export async function expectShardsConsistent(
  modelClass: Function,
  raw: RawClient,
  prefix: string,
  options: CheckOptions = {},
): Promise<number> {
  let live = 0;
  for (const keys of descriptorOf(modelClass).shardKeys(prefix)) {
    live += (await expectIndexesConsistent(modelClass, raw, prefix, { ...options, base: keys.base })).objects;
  }
  return live;
}

/** Every temporary query key under the prefix (there should be none once queries have returned). */
export async function temporaryKeys(raw: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${globEscape(prefix)}:*:tmp:*`, COUNT: 1000 })) keys.push(...batch);
  return keys;
}

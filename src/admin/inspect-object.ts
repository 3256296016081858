import { entriesFor, type ExpectedEntry } from '../integrity/expected-entries';
import { scopeOfId, type ModelScope } from '../integrity/model-scope';
import { normalizeId } from '../keys/id-format';
import { indexName, type StoredDefinition, type StoredIndex } from '../schema/stored-definition';
import { decodeHash, type DecodedAttribute } from './decode-attributes';

/** One entry an index must hold for an object, and whether it is stored (inspectObject). */
export interface IndexEntryState {
  /** The index's name, `<kind>:<attribute>[@<scope>][/ci]`. */
  readonly index: string;
  /** The key the entry belongs in. */
  readonly key: string;
  /** The member (or unique value) as text; lex members as their value. */
  readonly member: string;
  /** A score index's score for the object. */
  readonly score?: number;
  /** Whether the entry is stored (with the right score; a unique value naming this id). */
  readonly present: boolean;
}

/** A many-to-many membership set of an object, with its size. */
export interface MembershipSet {
  /** The set's key. */
  readonly key: string;
  /** Its members. */
  readonly size: number;
}

/** One stored object as inspectObject reads it. */
export interface StoredObject {
  /** The model's name. */
  readonly model: string;
  /** The scope's tenant; null outside tenants. */
  readonly tenant: string | null;
  /** The object's id. */
  readonly id: string;
  /** The key of its hash. */
  readonly key: string;
  /** Whether its hash exists. When not, nothing below is read. */
  readonly exists: boolean;
  /** Whether its id is in the model's `all`. */
  readonly listed: boolean;
  /** When it expires, in ms since the epoch, when it has a time to live. */
  readonly expiresAt: number | null;
  /** Its hash fields, decoded by their stored types (decode-attributes.ts); internal `#` fields excluded. */
  readonly attributes: DecodedAttribute[];
  /** The internal `#` fields of its hash, as stored. */
  readonly internal: Record<string, string>;
  /** The entry each index of the model must hold for it, with whether it is stored. */
  readonly entries: IndexEntryState[];
  /** Its non-empty many-to-many membership sets. */
  readonly memberships: MembershipSet[];
}

const text = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

function memberText(index: StoredIndex, member: string): string {
  if (index.kind !== 'lex') return text(member);
  const at = member.indexOf('\0\0');
  const value = member.slice(0, at < 0 ? undefined : at);
  return value === '\xff' ? '(absent)' : text(value.replaceAll('\0\x01', '\0'));
}

async function isPresent(scope: ModelScope, entry: ExpectedEntry, id: string): Promise<boolean> {
  const { client } = scope;
  const bytes = Buffer.from(entry.member, 'latin1');
  if (entry.kind === 'S') return Boolean(await client.sIsMember(entry.key, bytes));
  if (entry.kind === 'U') return (await client.hGet(entry.key, bytes)) === id;
  const stored = await client.zScore(entry.key, bytes);
  return stored !== null && (entry.score === undefined || stored === entry.score);
}

async function entriesOf(scope: ModelScope, hash: Record<string, string>, id: string): Promise<IndexEntryState[]> {
  const values = new Map(Object.entries(hash));
  const states: IndexEntryState[] = [];
  for (const index of scope.definition.indexes) {
    for (const entry of entriesFor(scope, index, values, id))
      states.push({
        index: indexName(index),
        key: entry.key,
        member: memberText(index, entry.member),
        ...(entry.score !== undefined && index.kind === 'score' ? { score: entry.score } : {}),
        present: await isPresent(scope, entry, id),
      });
  }
  return states;
}

/**
 * The object's membership sets: its own many-to-many sets, and the sets it holds as the target of another
 * model's one-sided many-to-many (`<base>:rev:<Model>.<property>:<id>`, under the object's own base).
 */
async function membershipsOf(scope: ModelScope, id: string, definitions: Iterable<StoredDefinition>): Promise<MembershipSet[]> {
  const keys: string[] = [];
  for (const relation of scope.definition.relations) {
    if (relation.kind === 'manyToMany') keys.push(`${scope.keys.base}:rel:${relation.property}:${id}`);
  }
  for (const other of definitions) {
    for (const relation of other.relations) {
      if (relation.kind === 'manyToMany' && relation.inverse === null && relation.target === scope.definition.name) {
        keys.push(`${scope.keys.base}:rev:${other.name}.${relation.property}:${id}`);
      }
    }
  }
  const sizes = await Promise.all(keys.map((key) => scope.client.sCard(key)));
  return keys.map((key, i) => ({ key, size: sizes[i] })).filter((m) => m.size > 0);
}

/**
 * Object `id` of the scope as it is stored (in its shard, for a sharded model): its attributes decoded by the
 * stored definition alone, its expiry, the entry each index must hold for it with whether it is stored, and
 * its membership sets. `definitions` are every model's stored definitions, to find the one-sided many-to-many
 * relations that target this model. Reads only; InvalidIdError for an id no object can have.
 */
export async function inspectObject(scope: ModelScope, id: string, definitions: Iterable<StoredDefinition> = []): Promise<StoredObject> {
  normalizeId(scope.definition.name, id);
  const shard = scopeOfId(scope, id);
  const key = shard.keys.object(id);
  const [hash, listed, expiresAt] = await Promise.all([
    shard.client.hGetAll(key),
    shard.client.zScore(shard.keys.all, id),
    shard.client.zScore(shard.keys.expiring, id),
  ]);
  const found = { model: scope.definition.name, tenant: scope.tenant ?? null, id, key, listed: listed !== null, expiresAt };
  if (Object.keys(hash).length === 0) return { ...found, exists: false, attributes: [], internal: {}, entries: [], memberships: [] };
  const { attributes, internal } = decodeHash(scope.definition, hash);
  return {
    ...found,
    exists: true,
    attributes,
    internal,
    entries: await entriesOf(shard, hash, id),
    memberships: await membershipsOf(shard, id, definitions),
  };
}

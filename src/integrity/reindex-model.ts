import { SchemaError } from '../errors/errors';
import { compareDefinitions } from '../schema/schema-status';
import { storeDefinition, storedDefinition } from '../schema/schema-registry';
import { indexName, keepsMemo, StoredDefinition, StoredIndex, withMemosKept } from '../schema/stored-definition';
import { StoredDefinitionError } from '../schema/parse-definition';
import { foldedAttributes, foldsOf, repairObject } from './apply-fix';
import { batchSizeOf } from './check-model';
import { DefinitionLookup, modelScope, ModelScope, shardScopes } from './model-scope';
import { claimPattern } from '../keys/claim-keys';
import { idsInOrder } from './ids-in-order';
import { hasClaims } from './check-claims';
import { claimAddedUniques } from './claim-added-uniques';
import { objectsListed } from './objects-listed';
import { globEscape, raw } from './raw-commands';
import { tenantsOf } from './tenants-of';
import { IntegrityOptions } from './violations';
import { expectTypes } from '../store/expect-types';
import { RedisCommands } from '../redis/redis-commands';

/** What `Model.reindex()` resolves to (docs/operations.md#reindexing). */
export interface ReindexResult {
  /** Indexes built (absent from the stored definition). */
  readonly added: string[];
  /** Indexes whose keys were deleted (absent from the current definition). */
  readonly dropped: string[];
  /** Indexes whose keys were deleted and built again (stale: written without them, see SchemaStatus). */
  readonly rebuilt: string[];
  /** Model scopes worked on: the model outside tenants, then each tenant found holding data. */
  readonly scopes: number;
  /** Objects whose entries were written. */
  readonly objects: number;
  /** Keys deleted: those of dropped and stale indexes, and in a sharded model the claims of their unique values. */
  readonly keysDeleted: number;
  /**
   * Model.reindex() only: objects whose stored `@Computed` values differed from their getters' and were written
   * again (in the scope reindex() was called on).
   */
  readonly recomputed?: number;
}

/** The key names (exact or SCAN patterns) of one index in a scope. */
function keyPatterns(scope: ModelScope, index: StoredIndex): string[] {
  const base = globEscape(scope.keys.base);
  const family = index.kind === 'unique' ? 'uniq' : index.kind === 'lex' || index.kind === 'compound' ? 'lex' : 'idx';
  if (index.kind === 'set' || index.kind === 'tag') return [`${base}:idx:${index.attribute}:*`, `${base}:nil:${index.attribute}`];
  if (index.scope !== null) return [`${base}:${family}:${index.attribute}@${index.scope}:*`];
  return [`${base}:${family}:${index.attribute}`];
}

async function deleteKeys(scope: ModelScope, indexes: readonly StoredIndex[], batchSize: number): Promise<number> {
  const client = raw(scope.client);
  let deleted = 0;
  for (const index of indexes) {
    for (const pattern of keyPatterns(scope, index)) {
      for await (const page of client.scanIterator({ MATCH: pattern, COUNT: batchSize })) {
        if (page.length > 0) deleted += Number(await client.unlink(page));
      }
    }
  }
  return deleted;
}

/**
 * Deletes the claims (docs/cluster.md) of the unique indexes among `indexes`, across the shards of a sharded
 * model: they are under the value's own hash tag, not the model's, so deleteKeys does not see them.
 */
async function deleteClaims(scope: ModelScope, indexes: readonly StoredIndex[], batchSize: number): Promise<number> {
  if ((scope.definition.shards ?? 1) === 1) return 0;
  const client = raw(scope.client);
  const tenant = scope.tenant === undefined ? undefined : globEscape(scope.tenant);
  let deleted = 0;
  for (const index of indexes.filter((dropped) => dropped.kind === 'unique')) {
    const pattern = claimPattern(globEscape(scope.prefix), scope.definition.name, tenant, index.attribute);
    for await (const page of client.scanIterator({ MATCH: pattern, COUNT: batchSize })) {
      if (page.length > 0) deleted += Number(await client.unlink(page));
    }
  }
  return deleted;
}

/**
 * Writes what each object of the scope lacks, one repair-object.lua call per object, the objects taken in
 * `all`'s order (ids-in-order.ts), so that of objects holding one value of an added unique index the first keeps
 * it (in a sharded model, the first of each shard; the claim across the shards goes to the first of all:
 * claim-added-uniques.ts). An object that keeps a memo (every object of a model with a ttl or a cap; in other
 * models one that has a memo or a time to live) has every entry written and its memo rewritten ('full'); any
 * other gets the entries of `added` ('add'), or nothing when `added` is empty. Resolves to how many objects were written.
 */
async function buildEntries(scope: ModelScope, added: readonly StoredIndex[], batchSize: number): Promise<number> {
  const every = scope.definition.indexes;
  const keeps = keepsMemo(scope.definition);
  const folded = foldedAttributes(every);
  const foldedAdded = new Set(foldedAttributes(added));
  let objects = 0;
  for await (const ids of idsInOrder(scope, batchSize)) {
    const [allFolds, memos] = await Promise.all([
      foldsOf(scope, ids, folded),
      keeps ? [] : Promise.all(ids.map((id) => hasMemo(scope, id))),
    ]);
    const calls = ids.map((id, i) => {
      const folds = allFolds[i];
      if (keeps || memos[i]) return repairObject(scope, id, folds, every, 'full');
      if (added.length === 0) return undefined;
      return repairObject(
        scope,
        id,
        folds.filter(([attr]) => foldedAdded.has(attr)),
        added,
        'add',
      );
    });
    objects += calls.filter((call) => call !== undefined).length;
    await Promise.all(calls);
  }
  return objects;
}

/** Whether object `id` has a memo or a time to live (an `exp` entry): it then keeps a memo in any model. */
async function hasMemo(scope: ModelScope, id: string): Promise<boolean> {
  const client = raw(scope.client);
  const [memo, expiring] = await Promise.all([client.exists(scope.keys.memo(id)), client.zScore(scope.keys.expiring, id)]);
  return Number(memo) === 1 || expiring !== null;
}

/**
 * The stored definition of `current`'s model; for one that cannot be read (not JSON, or not a definition: see
 * parseDefinition), `current` with every index stale and no memo known to be kept. What that definition
 * declared is unknown, so every index of the model is rebuilt (its keys deleted, its entries written from the
 * objects) and every memo rewritten; keys of indexes it may have declared that `current` lacks are left to
 * check() and repair() (`unknownKey`: deleted).
 */
async function readableDefinition(client: unknown, prefix: string, current: StoredDefinition): Promise<StoredDefinition | undefined> {
  try {
    return await storedDefinition(client, prefix, current.name);
  } catch (error) {
    if (!(error instanceof SyntaxError) && !(error instanceof StoredDefinitionError)) throw error;
    return { ...current, stale: current.indexes.map(indexName), memosKept: undefined };
  }
}

/**
 * Brings the data of every scope of the model (outside tenants and each tenant's) in line with `current`. A
 * stored definition with another layout (group, shards) is replaced only when its keys list no object (else a
 * SchemaError), and the data under the new keys is taken as written with `current`. Otherwise it deletes the
 * keys of the indexes the stored definition has and `current` lacks (and of stale ones), builds the entries of
 * the indexes `current` adds (and of stale ones) and rewrites memos (buildEntries), then stores `current` as the
 * definition, saying that every object keeps a memo when the model has a ttl or a cap (memosKept). The objects
 * are walked only when indexes were added, dropped or stale, or when the model keeps memos and the stored
 * definition does not say that every object has one (a ttl or cap added since the last run, or no definition
 * stored).
 * A stored definition that cannot be read is replaced: every index is rebuilt (readableDefinition).
 * Runs from definitions alone. Safe while the application writes with the current definition: every object is
 * rewritten in one atomic step from what is stored when its turn comes.
 */
export async function reindexModel(
  client: unknown,
  prefix: string,
  current: StoredDefinition,
  lookup: DefinitionLookup,
  options: IntegrityOptions = {},
): Promise<ReindexResult> {
  const batchSize = batchSizeOf(options);
  let stored = await readableDefinition(client, prefix, current);
  let status = compareDefinitions(stored, current);
  if (stored && status.moved.length > 0) {
    // the stored definition names other keys: replaced only once they list no object (nothing would see them)
    const left = await objectsListed(client, prefix, stored, lookup, batchSize);
    if (left > 0) {
      throw new SchemaError(
        `${current.name}: its keys are not its stored definition's (${status.moved.join('; ')}): ${left} objects are stored under the old keys, which no operation or tool of the model would see; move or delete them, then run reindex()`,
      );
    }
    // what the new keys hold was written by the model as it is now
    stored = current;
    status = compareDefinitions(stored, current);
  }
  // a stale index's entries can be wrong or dangling, not only missing: its keys go, then it is built as added
  const rebuilt = current.indexes.filter((i) => status.stale.includes(indexName(i)));
  const added = [...current.indexes.filter((i) => status.added.includes(indexName(i))), ...rebuilt];
  const dropped = [...(stored?.indexes ?? []).filter((i) => status.dropped.includes(indexName(i))), ...rebuilt];
  const tenants = [undefined, ...(await tenantsOf(client, prefix, current, batchSize))];
  let objects = 0;
  let keysDeleted = 0;
  // In a model that keeps memos, objects written before its ttl or cap have none: the stored definition says
  // whether every object is known to keep one (memosKept); without a stored definition nothing is known.
  const memosMissing = keepsMemo(current) && stored?.memosKept !== true;
  const wholes = tenants.map((tenant) => modelScope(client, prefix, current, lookup, tenant));
  // an `all`, `exp` or sequence of another type is refused (WrongTypeError) before anything is written:
  // repair() settles it (check-model-keys.ts)
  for (const { keys } of wholes.flatMap(shardScopes)) {
    await expectTypes(client as RedisCommands, [
      [keys.all, 'zset'],
      [keys.expiring, 'zset'],
      [keys.sequence, 'string'],
    ]);
  }
  for (const whole of wholes) {
    for (const scope of shardScopes(whole)) {
      keysDeleted += await deleteKeys(scope, dropped, batchSize);
      if (memosMissing || added.length > 0 || dropped.length > 0) objects += await buildEntries(scope, added, batchSize);
    }
    // a sharded model's dropped unique values are no longer claimed; its added ones are claimed across its
    // shards, for the first holder in id order
    keysDeleted += await deleteClaims(whole, dropped, batchSize);
    if (hasClaims(whole)) await claimAddedUniques(whole, added, batchSize);
  }
  // every object now keeps the memo the model needs (a model with a ttl or a cap: each was walked, or was known to)
  await storeDefinition(client, prefix, withMemosKept(current, true));
  return { added: status.added, dropped: status.dropped, rebuilt: status.stale, scopes: tenants.length, objects, keysDeleted };
}

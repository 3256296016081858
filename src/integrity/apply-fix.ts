import { RedisCommands } from '../redis/redis-commands';
import { scripts } from '../store/scripts';
import { StoredIndex } from '../schema/stored-definition';
import { Fix } from './findings';
import { ModelScope, pushStoredSpecs } from './model-scope';
import { raw, unlessWrongType } from './raw-commands';
import { idsInOrder } from './ids-in-order';
import { foldCase } from '../model/index-descriptor';

const commands = (scope: ModelScope) => scope.client as RedisCommands;

/** One `folds` entry of repairObject: a case-insensitive unique attribute, its stored value, that value folded. */
export type Fold = readonly [string, string, string];

/** The attributes of the case-insensitive unique indexes among `indexes`. */
export function foldedAttributes(indexes: readonly StoredIndex[]): string[] {
  return indexes.filter((index) => index.kind === 'unique' && index.caseInsensitive).map((index) => index.attribute);
}

/**
 * The `folds` of each object of `ids` for `attributes` (foldedAttributes): one HMGET per object, none when there
 * is no such attribute; a key of another type reads as no value.
 */
export async function foldsOf(scope: ModelScope, ids: readonly string[], attributes: readonly string[]): Promise<Fold[][]> {
  if (attributes.length === 0) return ids.map(() => []);
  const client = raw(scope.client);
  const values = await Promise.all(
    ids.map((id) => unlessWrongType(client.hmGet(scope.keys.object(id), [...attributes]), [] as Array<string | null>)),
  );
  return values.map((stored) => attributes.map((attr, f) => [attr, stored[f] ?? '', foldCase(stored[f] ?? '')] as const));
}

/** save.lua's id form of a scope: '0' given ids, '1' sequence ids, 'n:s' the sequence of shard s of n. */
function idFormOf({ definition, keys }: ModelScope): string {
  if (definition.idStrategy !== 'sequence') return '0';
  return keys.shard === undefined ? '1' : `${keys.shard.count}:${keys.shard.index}`;
}

/** Rewrites one object's entries (and memo) from its stored values; see repair-object.lua for the outcomes. */
export async function repairObject(
  scope: ModelScope,
  id: string,
  folds: readonly Fold[],
  indexes: readonly StoredIndex[] = scope.definition.indexes,
  mode: 'full' | 'add' = 'full',
): Promise<string> {
  const { definition, keys } = scope;
  const memo = definition.ttlMs !== null || definition.cap !== null;
  const args: Array<string | Buffer> = [id, idFormOf(scope), memo ? '1' : '0', mode, String(folds.length), ...folds.flat()];
  pushStoredSpecs(args, definition, indexes);
  return String(await scripts.repairObject().run(commands(scope), [keys.all, keys.base, keys.sequence], args));
}

/**
 * repair-object.lua's outcomes that leave the object with a violation: 'conflict' and 'unindexable' rebuild what
 * they can and leave one entry (a check of the object names what is left), 'unlistable' and 'not a hash' write
 * nothing (the violations found stay).
 */
const RECHECKED = new Set(['conflict', 'unindexable']);
const UNCHANGED = new Set(['unlistable', 'not a hash']);

/** What a fix did: `line` says it; `left` when it left a violation (see RECHECKED, UNCHANGED). */
export interface Applied {
  readonly line: string;
  readonly left?: 'recheck' | 'unchanged';
}

/** Applies one fix as one atomic step. */
export async function applyFix(scope: ModelScope, fix: Fix): Promise<Applied> {
  if (fix.type !== 'object') return { line: await applyOther(scope, fix) };
  const outcome = await repairObject(scope, fix.id, fix.folds);
  const left = RECHECKED.has(outcome) ? 'recheck' : UNCHANGED.has(outcome) ? 'unchanged' : undefined;
  return { line: `object ${fix.id}: ${outcome}`, left };
}

/** Applies a fix other than an object's; resolves to a line saying what was done. */
async function applyOther(scope: ModelScope, fix: Exclude<Fix, { type: 'object' }>): Promise<string> {
  const { definition, keys } = scope;
  const client = commands(scope);
  switch (fix.type) {
    case 'entries': {
      const args: Array<string | Buffer> = [];
      pushStoredSpecs(args, definition, [fix.index]);
      args.shift(); // one spec, no count
      args.push(...fix.members.map((m) => Buffer.from(m, 'latin1')));
      const removed = await scripts.repairEntries().run(client, [keys.all, keys.base, fix.key], args);
      return `${fix.key}: ${removed} entr${Number(removed) === 1 ? 'y' : 'ies'} removed`;
    }
    case 'sequence': {
      const now = await scripts.raiseSequence().run(client, [keys.sequence], [String(fix.max)]);
      return `sequence raised to ${now}`;
    }
    case 'foreignKey': {
      const touching = definition.indexes.filter((i) => i.attribute === fix.foreignKey || i.scope === fix.foreignKey);
      const args: Array<string | Buffer> = [fix.id, fix.foreignKey, fix.parentId];
      pushStoredSpecs(args, definition, touching);
      const cleared = await scripts.nullifyForeignKey().run(client, [keys.all, keys.base, fix.parent.keys.all, fix.parent.keys.base], args);
      return `object ${fix.id}: ${fix.foreignKey} ${Number(cleared) === 1 ? 'nullified' : 'left (changed meanwhile)'}`;
    }
    case 'membership': {
      const keyList = [fix.owner.keys.all, fix.owner.keys.base, fix.other.keys.all, fix.other.keys.base, fix.ownerSet, fix.otherSet];
      const outcome = await scripts.repairMembership().run(client, keyList, [fix.ownerId, fix.otherId]);
      return `membership ${fix.ownerSet} / ${fix.otherId}: ${outcome}`;
    }
    case 'unlink':
      await raw(client).unlink([fix.key]);
      return `${fix.key}: deleted`;
    case 'expiring': {
      // deleted, then each object whose hash has a TTL is entered again at the time it expires
      await raw(client).unlink([keys.expiring]);
      let written = 0;
      for await (const batch of idsInOrder(scope, 500)) written += Number(await scripts.repairExpiry().run(client, [keys.base], batch));
      return `${keys.expiring}: deleted, ${written} entr${written === 1 ? 'y' : 'ies'} written again from the objects' TTLs`;
    }
    case 'releaseClaim': {
      const released = Number(await scripts.releaseUnique().run(client, [fix.key], [fix.holder, fix.claim]));
      return `${fix.key}: ${released === 1 ? `claim of ${fix.holder} released` : 'left (changed meanwhile)'}`;
    }
    case 'claim': {
      const reply = await scripts.claimUnique().run(client, [fix.key], [fix.id, fix.replace]);
      return `${fix.key}: ${Array.isArray(reply) ? 'left (claimed meanwhile)' : `claimed for ${fix.id}`}`;
    }
  }
}

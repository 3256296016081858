import { RedisCommands } from '../redis/redis-commands';
import { callScript } from '../store/entry-script';
import { claimUniqueScript } from '../store/lua/claim-unique';
import { nullifyForeignKeyScript } from '../store/lua/nullify-foreign-key';
import { raiseSequenceScript } from '../store/lua/raise-sequence';
import { releaseUniqueScript } from '../store/lua/release-unique';
import { repairEntriesScript } from '../store/lua/repair-entries';
import { repairExpiryScript } from '../store/lua/repair-expiry';
import { repairMembershipScript } from '../store/lua/repair-membership';
import { Fold, repairObjectScript } from '../store/lua/repair-object';
import { trimCapScript } from '../store/lua/trim-cap';
import { StoredIndex } from '../schema/stored-definition';
import { Fix } from './findings';
import { ModelScope, specsOf } from './model-scope';
import { raw, unlessWrongType } from './raw-commands';
import { idsInOrder } from './ids-in-order';
import { foldCase, partsOfName } from '../model/index-descriptor';

const commands = (scope: ModelScope) => scope.client as RedisCommands;

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

/** Rewrites one object's entries (and memo) from its stored values; see repair-object.lua for the outcomes. */
export async function repairObject(
  scope: ModelScope,
  id: string,
  folds: readonly Fold[],
  indexes: readonly StoredIndex[] = scope.definition.indexes,
  mode: 'full' | 'add' = 'full',
): Promise<string> {
  const { definition, keys } = scope;
  return callScript(commands(scope), repairObjectScript, {
    keys,
    id,
    sequenceIds: definition.idStrategy === 'sequence',
    keepsMemo: definition.ttlMs !== null || definition.cap !== null,
    mode,
    folds,
    indexes: specsOf(definition, indexes),
  });
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
      const [index] = specsOf(definition, [fix.index]);
      const removed = await callScript(client, repairEntriesScript, { keys, key: fix.key, index, members: fix.members });
      return `${fix.key}: ${removed} entr${removed === 1 ? 'y' : 'ies'} removed`;
    }
    case 'sequence': {
      const now = await callScript(client, raiseSequenceScript, { sequence: keys.sequence, atLeast: fix.max });
      return `sequence raised to ${now}`;
    }
    case 'foreignKey': {
      const touching = definition.indexes.filter(
        (i) => i.attribute === fix.foreignKey || i.scope === fix.foreignKey || partsOfName(i.attribute)?.includes(fix.foreignKey),
      );
      const cleared = await callScript(client, nullifyForeignKeyScript, {
        child: keys,
        parent: fix.parent.keys,
        id: fix.id,
        foreignKey: fix.foreignKey,
        parentId: fix.parentId,
        indexes: specsOf(definition, touching),
      });
      return `object ${fix.id}: ${fix.foreignKey} ${cleared ? 'nullified' : 'left (changed meanwhile)'}`;
    }
    case 'membership': {
      const outcome = await callScript(client, repairMembershipScript, {
        owner: fix.owner.keys,
        other: fix.other.keys,
        ownerSet: fix.ownerSet,
        otherSet: fix.otherSet,
        ownerId: fix.ownerId,
        otherId: fix.otherId,
        ownerOrdered: fix.ownerOrdered,
        otherOrdered: fix.otherOrdered,
      });
      return `membership ${fix.ownerSet} / ${fix.otherId}: ${outcome}`;
    }
    case 'unlink':
      await raw(client).unlink([fix.key]);
      return `${fix.key}: deleted`;
    case 'trim': {
      const cap = definition.cap!;
      const evicted = await callScript(client, trimCapScript, {
        keys,
        key: fix.key,
        keep: cap.keep,
        order: cap.order,
        sequenceIds: definition.idStrategy === 'sequence',
        indexes: specsOf(definition, definition.indexes),
      });
      return `${fix.key}: trimmed to the cap, ${evicted} object${evicted === 1 ? '' : 's'} evicted`;
    }
    case 'expiring': {
      // deleted, then each object whose hash has a TTL is entered again at the time it expires
      await raw(client).unlink([keys.expiring]);
      let written = 0;
      for await (const ids of idsInOrder(scope, 500)) written += await callScript(client, repairExpiryScript, { keys, ids });
      return `${keys.expiring}: deleted, ${written} entr${written === 1 ? 'y' : 'ies'} written again from the objects' TTLs`;
    }
    case 'releaseClaim': {
      const released = await callScript(client, releaseUniqueScript, { key: fix.key, holder: fix.holder, claim: fix.claim });
      return `${fix.key}: ${released ? `claim of ${fix.holder} released` : 'left (changed meanwhile)'}`;
    }
    case 'claim': {
      const reply = await callScript(client, claimUniqueScript, { key: fix.key, id: fix.id, replace: fix.replace });
      return `${fix.key}: ${'standing' in reply ? 'left (claimed meanwhile)' : `claimed for ${fix.id}`}`;
    }
  }
}

import { claimedValue, claimKey, claimPattern } from '../keys/claim-keys';
import { timeMs } from '../redis/server-time';
import { CLAIM_GRACE_MS } from '../store/unique-claims';
import { shardOfId } from '../keys/shard-tags';
import { StoredIndex } from '../schema/stored-definition';
import { Findings } from './findings';
import { isNumeric, ModelScope, shardScopes } from './model-scope';
import { globEscape, raw, unlessWrongType } from './raw-commands';
import { compositeValue, foldCase, partsOfName } from '../model/index-descriptor';

/** Whether a model's unique values are claimed across shards (a sharded model with @Unique attributes). */
export function hasClaims(scope: ModelScope): boolean {
  return (scope.definition.shards ?? 1) > 1 && scope.definition.indexes.some((index) => index.kind === 'unique');
}

/**
 * The form a unique index compares of an object's stored value: folded for `caseInsensitive` (foldCase), so that
 * the check judges which value an object holds from its value, not from its `#ci:` field.
 */
function heldForm(index: StoredIndex, stored: string): string {
  return index.caseInsensitive ? foldCase(stored) : stored;
}

/** The claim key of a single attribute's unique value in the form its index compares (a number's `-0` as `0`). */
function claimKeyOf(scope: ModelScope, index: StoredIndex, stored: string): string {
  const { definition, prefix, tenant } = scope;
  return claimKey(prefix, definition.name, tenant, index.attribute, claimedValue(stored, isNumeric(definition, index.attribute)));
}

/** The hash fields the value of a unique index is read from: its attribute, or a composite unique's parts. */
export function heldFieldsOf(index: StoredIndex): string[] {
  return partsOfName(index.attribute) ?? [index.attribute];
}

/**
 * The claim key of the value an object holds, from the fields heldFieldsOf names (`read`, in their order; null
 * or undefined: absent); undefined when it holds none (a composite unique missing a part).
 */
export function heldClaimKey(scope: ModelScope, index: StoredIndex, read: ReadonlyArray<string | null | undefined>): string | undefined {
  const fields = heldFieldsOf(index);
  if (fields.length === 1) {
    const value = read[0];
    return value === null || value === undefined ? undefined : claimKeyOf(scope, index, heldForm(index, value));
  }
  const parts = fields.map((field) => ({ field, numeric: isNumeric(scope.definition, field) }));
  const held = compositeValue(parts, (field) => read[fields.indexOf(field)] ?? undefined);
  const { definition, prefix, tenant } = scope;
  return held === undefined ? undefined : claimKey(prefix, definition.name, tenant, index.attribute, held);
}

/** The attribute (or composite unique's name) a claim key names (the rest of the key is checked by building it again). */
const CLAIM = /\{(?:[^{}]*\/)?[A-Za-z0-9_]+@([A-Za-z0-9_+]+):[0-9a-f]{40}\}:claim$/;

/** The time a claim ('<id> <ms>') was taken, in the server's ms; 0 (long ago) when it names none. */
function claimedAt(claim: string): number {
  const at = Number(claim.split(' ')[1]);
  return Number.isFinite(at) ? at : 0;
}

/**
 * Invariant 4 across the shards of a sharded model (docs/cluster.md): every claim names an object that holds
 * the claimed value (else, once older than CLAIM_GRACE_MS, `staleClaim`, fixed by releasing that exact claim; a
 * younger one may be a writer's between its claim and its write, and is left alone), and every unique value a
 * live object holds is claimed by it (else `unclaimedUnique`, fixed by claiming it unless a younger claim of
 * another object stands; `duplicateUnique` when another object holding the value has the claim). The value an
 * object holds is read from its attribute (heldForm), never from its `#ci:` field. Reads only; each fix is one
 * compare-and-set.
 */
export async function checkClaims(scope: ModelScope, findings: Findings, batchSize: number): Promise<void> {
  const { definition, prefix, tenant } = scope;
  const client = raw(scope.client);
  const uniques = definition.indexes.filter((index) => index.kind === 'unique');
  const shards = shardScopes(scope);
  const sequence = definition.idStrategy === 'sequence';
  const objectKey = (id: string) => shards[shardOfId(id, shards.length, sequence)].keys.object(id);

  // Claims whose holder does not hold the value: stale once older than the grace period, else a writer's that
  // may be between its claim and its write (in flight).
  const stale = new Set<string>();
  const inFlight = new Set<string>();
  const pattern = claimPattern(globEscape(prefix), definition.name, tenant === undefined ? undefined : globEscape(tenant));
  for await (const page of client.scanIterator({ MATCH: pattern, COUNT: batchSize })) {
    // the server's time (claims carry it), read before the claims: an age is never overstated
    const now = timeMs(await client.time());
    const claims = await Promise.all(page.map((key) => client.get(key)));
    await Promise.all(
      page.map(async (key, i) => {
        const parsed = key.match(CLAIM);
        const index = parsed && uniques.find((u) => u.attribute === parsed[1]);
        const claim = claims[i];
        if (!parsed || !index || claim === null) return;
        const holder = claim.split(' ')[0];
        const object = objectKey(holder);
        const read = await unlessWrongType(client.hmGet(object, heldFieldsOf(index)), [] as Array<string | null>);
        if (heldClaimKey(scope, index, read) === key) return; // the holder holds the claimed value
        if (now - claimedAt(claim) < CLAIM_GRACE_MS) {
          inFlight.add(key);
          return;
        }
        stale.add(key);
        findings.add('staleClaim', { key, id: holder }, `claimed by ${holder}, which does not hold the value`, {
          type: 'releaseClaim',
          key,
          holder,
          claim,
        });
      }),
    );
  }

  // Live objects' values without their claim.
  for (const shard of shards) {
    for await (const page of client.zScanIterator(shard.keys.all, { COUNT: batchSize })) {
      const ids = page.map((entry) => String(entry.value));
      const fields = uniques.map(heldFieldsOf);
      const values = await Promise.all(
        ids.map((id) => unlessWrongType(client.hmGet(shard.keys.object(id), fields.flat()), [] as Array<string | null>)),
      );
      const wanted: Array<{ id: string; key: string }> = [];
      ids.forEach((id, i) => {
        let at = 0;
        uniques.forEach((index, u) => {
          const key = heldClaimKey(scope, index, values[i].slice(at, (at += fields[u].length)));
          if (key !== undefined) wanted.push({ id, key });
        });
      });
      const claims = await Promise.all(wanted.map(({ key }) => client.get(key)));
      wanted.forEach(({ id, key }, i) => {
        const claim = claims[i];
        const holder = claim?.split(' ')[0];
        if (holder === id) return;
        if (claim === null || claim === undefined || stale.has(key)) {
          findings.add('unclaimedUnique', { id, key }, `holds a unique value without its claim`, {
            type: 'claim',
            key,
            id,
            replace: claim ?? '',
          });
        } else if (inFlight.has(key)) {
          // not claimed back while the claim may be a writer's in flight: a later run decides
          findings.add('unclaimedUnique', { id, key }, `holds a unique value claimed by ${holder} less than ${CLAIM_GRACE_MS} ms ago`);
        } else {
          findings.add('duplicateUnique', { id, key }, `holds a unique value claimed by ${holder}, which holds it too`);
        }
      });
    }
  }
}

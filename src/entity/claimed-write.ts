import { Connection } from '../redis/connection';
import { SaveOutcome } from '../store/object-store';
import { ClaimOutcome, sameValue, UniqueClaims, UniqueValue, uniqueValues } from '../store/unique-claims';
import { EncodedFields } from '../mapper/encoded-fields';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';

/** Whether saves of this model claim their unique values across shards (sharded models with @Unique). */
export function claimsUniques(model: ModelDescriptor): boolean {
  return model.shards > 1 && model.indexes.some((index) => index.kind === 'unique');
}

/**
 * A write of a sharded model that gains unique values: the new values are claimed first (refused with the
 * value's index when another object holds one), then the object is written; a write that does not go through
 * releases the claims this call took (not those the object held already), one that does releases the values
 * the object held before it at the indexes it rewrote (read from its shard with the claims, so that an
 * instance loaded before another one changed the object gives up what was stored, not what it loaded). That
 * read also finds an update of an object that is gone, or whose @Version moved on since `readVersion` (when one
 * is given): it is refused as such, as save.lua refuses it before it looks at unique values. `cleared` names unique
 * indexes whose value the write removes from an object whose values were not read (Model.update): their held
 * values are read and released as well. A crash
 * between the steps leaves a claim whose holder does not hold the value: it is taken over once stale, and
 * `check` reports it (docs/cluster.md).
 */
export async function claimedWrite<O extends SaveOutcome | { notArray: string }>(
  model: ModelDescriptor,
  connection: Connection,
  id: string,
  after: EncodedFields,
  before: EncodedFields | undefined,
  write: () => Promise<O>,
  { readVersion, cleared = [] }: { readonly readVersion?: string; readonly cleared?: readonly IndexDescriptor[] } = {},
): Promise<O | Exclude<SaveOutcome, { id: string }>> {
  const claims = new UniqueClaims(model, connection);
  const { gained, lost } = uniqueChanges(model, after, before);
  const rewritten = [...new Set([...rewrittenIndexes({ gained, lost }), ...cleared])];
  const reading = before !== undefined && rewritten.length > 0;
  const [claimed, stored] = await Promise.all([
    gained.length > 0 ? claims.claim(id, gained) : ({ took: [] } as ClaimOutcome),
    reading ? claims.storedIfLive(id, rewritten) : undefined,
  ]);
  // An update is refused for what save.lua checks before unique values, whatever its values meet: the object
  // gone, or (with @Version) saved by someone else since this instance read it.
  const refused: Exclude<SaveOutcome, { id: string }> | undefined = !reading
    ? undefined
    : stored === undefined
      ? { missing: true }
      : model.version && readVersion !== undefined && (stored.version ?? '') !== readVersion
        ? { stale: true }
        : undefined;
  if (refused) {
    await claims.release(id, claimed.took);
    return refused;
  }
  const held = stored?.values ?? [];
  if (claimed.taken) return { uniqueTaken: claimed.taken.index.attribute.field };
  // A write that throws may still have happened (a lost reply): its claims stay, and are taken over once stale.
  const outcome = await write();
  if ('id' in outcome) {
    const kept = uniqueValues(model, after);
    await claims.release(
      id,
      held.filter((value) => !kept.some((k) => sameValue(k, value))),
    );
  } else {
    await claims.release(id, claimed.took);
  }
  return outcome;
}

/** The unique indexes whose value a write replaces (an update writes what differs from its snapshot). */
export function rewrittenIndexes({ gained, lost }: { gained: readonly UniqueValue[]; lost: readonly UniqueValue[] }): IndexDescriptor[] {
  return [...new Set([...gained, ...lost].map((value) => value.index))];
}

/** The unique values a write of `after` over `before` (undefined: a create) takes, and those it gives up. */
export function uniqueChanges(
  model: ModelDescriptor,
  after: EncodedFields,
  before: EncodedFields | undefined,
): { gained: UniqueValue[]; lost: UniqueValue[] } {
  const old = before ? uniqueValues(model, before) : [];
  const now = uniqueValues(model, after);
  return {
    gained: now.filter((value) => !old.some((o) => sameValue(o, value))),
    lost: old.filter((value) => !now.some((a) => sameValue(a, value))),
  };
}

import { Connection } from '../../redis/connection';
import { encodeAttributes, encodeUpdatedAttributes } from '../../mapper/attribute-encoder';
import { EncodedFields } from '../../mapper/encoded-fields';
import { UniqueClaims, UniqueValue } from '../../store/unique-claims';
import { IndexDescriptor } from '../../model/index-descriptor';
import { ModelDescriptor } from '../../model/model-descriptor';
import { EntityState, snapshotOf } from '../entity-state';
import { rewrittenIndexes, uniqueChanges } from '../claimed-write';
import { UPDATES_IN_FLIGHT } from './bulk-options';
import { eachInFlight } from './bulk-windows';

/**
 * Which writes of a saveMany call on a sharded model with unique values (claimed-write.ts: each object claims
 * its values on its own) depend on one another. An item whose unique values (those it takes and those it gives
 * up) meet no other item's of the call cannot change what another item's write comes to, so such items go in
 * flight together. Items that share a value (one gives it up and another takes it, or two want it) are
 * `entangled`: saveMany writes them one after the other in the given order, which settles them as save()
 * called in that order does (and as the unsharded chunks, which a script applies in order, do).
 *
 * What an update gives up is what its object holds at the unique indexes it rewrites (claimedWrite releases
 * those), not what its instance was loaded with: an instance loaded before another one changed the object gives
 * up the stored value. So an update that rewrites a unique index another item of the call takes a value at has
 * the values it gives up read from its shard first (one HMGET, as claimedWrite reads them). When such a read
 * fails, nothing is known for sure and every item is entangled: the call is written in the given order.
 *
 * Resolves, for each of `positions`, to whether that item is entangled. An item whose values cannot be encoded
 * fails at its write whatever the others do, and takes no part.
 */
export async function entangledItems(
  model: ModelDescriptor,
  connection: Connection,
  entities: readonly object[],
  states: readonly EntityState[],
  positions: readonly number[],
): Promise<boolean[]> {
  const changes = positions.map((at) => changesOf(model, entities[at], states[at]));
  // how many items take a value at each unique index: an update's stored values matter where another one does
  const takers = new Map<IndexDescriptor, number>();
  for (const change of changes) {
    for (const index of new Set(change.gained.map((value) => value.index))) takers.set(index, (takers.get(index) ?? 0) + 1);
  }
  const claims = new UniqueClaims(model, connection);
  let unknown = false;
  await eachInFlight(positions.length, UPDATES_IN_FLIGHT, async (i) => {
    const change = changes[i];
    const state = states[positions[i]];
    if (state.stored === undefined) return;
    const read = rewrittenIndexes(change).filter((index) => {
      const own = change.gained.some((value) => value.index === index) ? 1 : 0;
      return (takers.get(index) ?? 0) > own;
    });
    if (read.length === 0) return;
    try {
      change.lost.push(...(await claims.stored(state.id!, read)));
    } catch {
      unknown = true;
    }
  });
  if (unknown) return positions.map(() => true);

  const entangled = new Array<boolean>(positions.length).fill(false);
  // a unique value (index field and compared form) -> the first item touching it
  const firstTouching = new Map<string, number>();
  for (let i = 0; i < positions.length; i++) {
    const { gained, lost } = changes[i];
    for (const value of [...gained, ...lost]) {
      const key = `${value.index.attribute.field}\u0000${value.value}`;
      const first = firstTouching.get(key);
      if (first === undefined) firstTouching.set(key, i);
      else if (first !== i) entangled[first] = entangled[i] = true;
    }
  }
  return entangled;
}

/** The unique values a write of the entity takes, and those it gives up as its snapshot says. */
function changesOf(model: ModelDescriptor, entity: object, state: EntityState): { gained: UniqueValue[]; lost: UniqueValue[] } {
  let fields: EncodedFields;
  try {
    // as its write encodes them: an update leaves out the counters and the version (a value assigned by hand is
    // no error)
    fields = state.stored === undefined ? encodeAttributes(model, entity) : encodeUpdatedAttributes(model, entity);
  } catch {
    return { gained: [], lost: [] };
  }
  return uniqueChanges(model, fields, snapshotOf(state));
}

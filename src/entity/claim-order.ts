import { encodeAttributes } from '../mapper/attribute-encoder';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../metadata/model-descriptor';
import { EntityState, snapshotOf } from './entity-state';
import { uniqueChanges } from './claimed-write';

/**
 * Which writes of a saveMany call on a sharded model with unique values (claimed-write.ts: each object claims
 * its values on its own) depend on one another. An item whose unique values (those it takes and those it gives
 * up) meet no other item's of the call cannot change what another item's write comes to, so such items go in
 * flight together. Items that share a value (one gives it up and another takes it, or two want it) are
 * `entangled`: saveMany writes them one after the other in the given order, which settles them as save()
 * called in that order does (and as the unsharded chunks, which a script applies in order, do).
 *
 * Returns, for each of `positions`, whether that item is entangled. An item whose values cannot be encoded
 * fails at its write whatever the others do, and takes no part.
 */
export function entangledItems(
  model: ModelDescriptor,
  entities: readonly object[],
  states: readonly EntityState[],
  positions: readonly number[],
): boolean[] {
  const entangled = new Array<boolean>(positions.length).fill(false);
  // a unique value (index field and compared form) -> the first item touching it
  const firstTouching = new Map<string, number>();
  for (let i = 0; i < positions.length; i++) {
    const at = positions[i];
    for (const value of touchedValues(model, entities[at], states[at])) {
      const first = firstTouching.get(value);
      if (first === undefined) firstTouching.set(value, i);
      else if (first !== i) entangled[first] = entangled[i] = true;
    }
  }
  return entangled;
}

/** The unique values a write of the entity takes or gives up, each as one string. */
function touchedValues(model: ModelDescriptor, entity: object, state: EntityState): string[] {
  let fields: EncodedFields;
  try {
    fields = encodeAttributes(model, entity);
  } catch {
    return [];
  }
  const { gained, lost } = uniqueChanges(model, fields, snapshotOf(state));
  return [...gained, ...lost].map((value) => `${value.field}\u0000${value.value}`);
}

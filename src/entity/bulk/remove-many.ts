import { activeConnection, Connection } from '../../redis/connection';
import { asError } from '../../errors/as-error';
import { describeValue } from '../../util/describe-value';
import { ArgumentError } from '../../errors/errors';
import { normalizeId } from '../../keys/id-format';
import { bulkTarget, groupByTarget } from '../../store/bulk-routing';
import { BulkStore } from '../../store/bulk-store';
import { ObjectStore, RemoveOutcome } from '../../store/object-store';
import { ModelDescriptor } from '../../model/model-descriptor';
import { descriptorOf } from '../../model/model-registry';
import { RemovalPlan, removalPlan, restrictedRemoval } from '../../store/removal-program';
import { dependentsOf } from '../../model/relation-graph';
import { crossSlotRemoval } from '../../store/cross-slot';
import { UniqueClaims, uniqueValues } from '../../store/unique-claims';
import { claimsUniques } from '../claimed-write';
import { afterSchema } from '../../schema/first-use';
import type { RemoveManyFailure, RemoveManyOptions, RemoveManyResult } from '../../types/bulk-types';
import type { EntityClass } from '../../types/entity-types';
import type { StatefulEntity } from '../entity-state';
import { chunkSizeOption, REMOVE_CHUNK_SIZE } from './bulk-options';
import { inWindows } from './bulk-windows';
import { buildStored } from '../materialize';
import { knownOptions } from '../../errors/options-argument';
import { WrongTypeError } from '../../errors/errors';
import { REMOVE_MANY_OPTIONS } from '../option-names';
import { hasRemoveHooks, runHooks } from '../run-hooks';
import { replicaShortfalls } from '../lifecycle/replica-waits';
import { afterRemoval, beforeRemoval } from '../lifecycle/remove-lifecycle';
import { chunkRefusal } from './chunk-refusal';

/** Transactions or script calls awaiting Redis at once. */
const IN_FLIGHT = 2;

/** An id on its way, with its position in the given array and, for models with remove hooks, its instance. */
interface Pending {
  readonly id: string;
  readonly index: number;
  entity?: object;
}

/**
 * Removes the objects with these ids as remove() removes each: atomically, with their index entries and what
 * depends on them, the onDelete rules checked per object. One call per chunk (per shard of a sharded model):
 * a transaction for a model with nothing but its hashes to remove, else one script that removes the chunk's
 * objects one after the other (BulkStore.remove); IN_FLIGHT chunks under way at once.
 * Invalid ids and refused removals are failures of their own item; ids of missing objects are reported as
 * missing. An id given twice is removed once (reported once, at its first position).
 *
 * A model with BeforeRemove or AfterRemove hooks has its objects loaded first (one round trip per chunk), so
 * the hooks run on instances holding the stored attributes, as they would on a loaded instance: BeforeRemove
 * of each, in order, before the writes; AfterRemove of each removed object after them. When one removal can
 * remove or change another object of the model (a cascade or nullify reaching the model itself), its ids go one
 * at a time, each loaded after the removals before it, so that the hooks run as remove() of each in turn would
 * run them.
 */
export async function removeMany<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  ids: ReadonlyArray<string | number>,
  options?: RemoveManyOptions,
): Promise<RemoveManyResult> {
  if (!Array.isArray(ids)) throw new ArgumentError(`removeMany: expected an array of ids, got ${describeValue(ids)}`);
  const chunkSize = chunkSizeOption('removeMany', knownOptions('removeMany', options, REMOVE_MANY_OPTIONS).chunkSize, REMOVE_CHUNK_SIZE);
  const model = descriptorOf(ctor);
  const failed: RemoveManyFailure[] = [];
  const pending: Pending[] = [];
  const seen = new Set<string>();
  // an invalid string or number given twice is reported once too, by the text given
  const refused = new Set<string>();
  // by position, so that a hole in a sparse array is an invalid id (undefined) like any other
  for (let index = 0; index < ids.length; index++) {
    const given: unknown = ids[index];
    let id: string;
    try {
      id = normalizeId(model.name, given);
    } catch (error) {
      const asText = typeof given === 'string' || typeof given === 'number';
      const text = asText ? String(given) : describeValue(given);
      if (asText && refused.has(text)) continue;
      if (asText) refused.add(text);
      failed.push({ id: text, index, error: asError(error), removed: false });
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push({ id, index });
  }

  const outcome = await afterSchema(model, () => removeAll(ctor, model, pending, chunkSize, failed));
  failed.sort((a, b) => a.index - b.index);
  return { ok: failed.length === 0, ...outcome, failed };
}

async function removeAll<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  pending: Pending[],
  chunkSize: number,
  failed: RemoveManyFailure[],
): Promise<{ removed: string[]; missing: string[] }> {
  const hooked = hasRemoveHooks(model);
  const existed = new Map<Pending, boolean>();
  const fail = (item: Pending, error: unknown, removed = false) =>
    failed.push({ id: item.id, index: item.index, error: asError(error), removed });

  const connection = activeConnection();
  const store = new ObjectStore(model, connection);
  const bulk = new BulkStore(model, connection);
  const plan = removalPlan(model, connection.prefix);
  // a call that cannot work on this cluster, whatever the ids: refused before any hook runs or anything is sent
  const crossing = crossSlotRemoval(plan, connection);
  if (crossing) throw crossing;
  // Hooks run on loaded instances, so a chunk's objects are loaded before the removal of any of them. When one
  // removal can remove or change another object of the model (a cascade or nullify reaching the model itself),
  // that would run BeforeRemove on an object the call's earlier removal then takes, or on attributes it then
  // changes: such a model's ids go one at a time, each loaded after the removals before it, as remove() of each
  // in turn (two round trips per id).
  const oneByOne = hooked && reachesOwnObjects(plan);
  await inWindows(pending, oneByOne ? 1 : chunkSize, oneByOne ? 1 : IN_FLIGHT, async (chunk) => {
    let ready = chunk;
    if (hooked) ready = await beforeRemove(ctor, model, store, connection, chunk, existed, fail);
    if (ready.length === 0) return;
    // a sharded model's unique values are read first, so that their claims are released with the objects
    const held = claimsUniques(model)
      ? (await store.loadMany(ready.map((item) => item.id))).map((fields) => fields && uniqueValues(model, fields))
      : [];
    // one call per key base (per shard of a sharded model), sent together; each shard has its own plan
    const outcomes = new Map<Pending, RemoveOutcome>();
    const groups = groupByTarget(ready, (item) => bulkTarget(model, connection.prefix, item.id));
    await Promise.all(
      groups.map(async ({ target, items }) => {
        const removal = removalPlan(model, connection.prefix, items[0].id).removal;
        let results: RemoveOutcome[];
        try {
          results = await bulk.remove(
            target,
            items.map((item) => item.id),
            removal,
          );
        } catch (error) {
          // the chunk refused before it removed anything: its ids fail, the others go on
          const refusal = chunkRefusal(error);
          if (!refusal) throw error;
          for (const item of items) fail(item, refusal);
          return;
        }
        items.forEach((item, i) => outcomes.set(item, results[i]));
      }),
    );
    const claims = new UniqueClaims(model, connection);
    await Promise.all(
      ready.map((item, i) => {
        const outcome = outcomes.get(item);
        return held[i] && outcome && 'existed' in outcome ? claims.release(item.id, held[i]!) : undefined;
      }),
    );
    for (const item of ready) {
      const outcome = outcomes.get(item);
      if (!outcome) continue; // refused with its chunk (failed above)
      if ('restrictedBy' in outcome) {
        fail(item, restrictedRemoval(plan, item.id, outcome.restrictedBy));
      } else {
        existed.set(item, outcome.existed);
      }
    }
  });

  // With the model's waitReplicas: the removals stand; an id whose node fell short is reported removed but failed.
  const written = new Map<string, string>();
  if (model.replicas) for (const item of pending) if (existed.get(item) === true) written.set(item.id, 'remove');
  const shortfalls = await replicaShortfalls(model, written, model.replicas);

  const removed: string[] = [];
  const missing: string[] = [];
  for (const item of pending) {
    const gone = existed.get(item);
    if (gone === undefined) continue; // failed
    if (!gone) {
      missing.push(item.id);
      continue;
    }
    if (item.entity) {
      try {
        await afterRemoval(model, item.entity);
      } catch (error) {
        fail(item, error, true);
        continue;
      }
    }
    // as remove() throws a replica shortfall after its AfterRemove hooks
    const shortfall = shortfalls.get(item.id);
    if (shortfall) fail(item, shortfall, true);
    else removed.push(item.id);
  }
  return { removed, missing };
}

/**
 * Loads the chunk's objects (AfterLoad hooks run as for any load) and runs their BeforeRemove hooks in order;
 * resolves to the items to remove. An object not found is missing (no hooks run for it); one that cannot be
 * loaded (a stored value its codec refuses: DecodeError; an AfterLoad hook that throws) or whose BeforeRemove
 * hook throws is a failure of its own item, and is not removed: its hooks could not run on it.
 */
async function beforeRemove<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  model: ModelDescriptor,
  store: ObjectStore,
  connection: Connection,
  chunk: readonly Pending[],
  existed: Map<Pending, boolean>,
  fail: (item: Pending, error: unknown) => void,
): Promise<Pending[]> {
  const loaded = await store.loadMany(chunk.map((item) => item.id));
  const refused = await otherTypes(
    model,
    connection,
    chunk.filter((_, i) => !loaded[i]),
  );
  const found: Pending[] = [];
  for (let i = 0; i < chunk.length; i++) {
    const item = chunk[i];
    const fields = loaded[i];
    if (!fields) {
      const refusal = refused.get(item);
      if (refusal) fail(item, refusal);
      else existed.set(item, false);
      continue;
    }
    try {
      const entity = buildStored(ctor, model, item.id, fields);
      await runHooks(model, entity, 'afterLoad');
      item.entity = entity;
      found.push(item);
    } catch (error) {
      fail(item, error);
    }
  }
  const ready: Pending[] = [];
  for (const item of found) {
    try {
      await beforeRemoval(model, item.entity!);
      ready.push(item);
    } catch (error) {
      fail(item, error);
    }
  }
  return ready;
}

/**
 * The items not loaded whose object key holds another Redis type than a hash, each with its WrongTypeError: a load
 * reads such a key as no object, but remove() of it is refused, and so is this item (the script removing it would
 * refuse its whole chunk). One round trip (a TYPE per key, pipelined), only for a chunk with ids not found.
 */
async function otherTypes(
  model: ModelDescriptor,
  connection: Connection,
  absent: readonly Pending[],
): Promise<Map<Pending, WrongTypeError>> {
  const refused = new Map<Pending, WrongTypeError>();
  if (absent.length === 0) return refused;
  const keys = absent.map((item) => model.keysOf(connection.prefix, item.id).object(item.id));
  const types = await Promise.all(keys.map((key) => connection.client.type(key)));
  for (let i = 0; i < absent.length; i++) {
    const found = String(types[i]);
    // a hash that is no object (no `#id` of its own) is missing, as for find()
    if (found !== 'none' && found !== 'hash') refused.set(absent[i], new WrongTypeError(keys[i], 'hash', found));
  }
  return refused;
}

/**
 * Whether removing an object of the plan's model can remove or change another object of that model: a cascade
 * or nullify rule, anywhere in the plan, whose dependent is the model itself.
 */
function reachesOwnObjects(plan: RemovalPlan): boolean {
  const own = plan.models[0];
  return plan.models.some((model) => dependentsOf(model).some(({ child, rule }) => child === own && rule !== 'restrict'));
}

import { v4 as uuidv4 } from 'uuid';
import { activeConnection } from '../../redis/connection';
import { encodeAttributes, encodeAttributesInto } from '../../mapper/attribute-encoder';
import { BulkTarget, bulkTarget, groupByTarget, onlyTarget } from '../../store/bulk-routing';
import { BulkStore, NewObject } from '../../store/bulk-store';
import { EncodedFields } from '../../mapper/encoded-fields';
import { HsetArgsSink, keptAfterWrite, newHsetArgs } from '../../mapper/hset-args';
import { sharedSnapshots, SnapshotFields, snapshotFields } from '../../mapper/shared-snapshots';
import { createsWithoutChecks } from '../../store/new-object-entries';
import { SaveOutcome } from '../../store/object-store';
import { ModelDescriptor } from '../../model/model-descriptor';
import { refuseCrossSlotParent } from '../../store/cross-slot';
import { parentChecks } from '../../store/parent-checks';
import { CREATES_IN_FLIGHT, firstChunks } from './bulk-options';
import { inRanges } from './bulk-windows';
import { stateOf } from '../entity-state';
import { prepareWrite, refusal, requiredGivenId } from '../write-entity';
import { asError } from '../../errors/as-error';
import { chunkRefusal } from './chunk-refusal';
import { drawnIds } from './drawn-ids';
import { LostReplies } from './unsure-creates';

/** A new object on its way: its position among the entities, and what is sent for it. */
interface PendingCreate extends NewObject {
  readonly at: number;
}

/**
 * The write step of saveMany for new objects: what writeEntity does for one create, for many, with one
 * save-many.lua call per chunk (per key base), or one MULTI per chunk for a model with nothing to check and no
 * foreign key (insertChunk). Each entity's id and snapshot follow what was stored, as after save(). Resolves to
 * the error of each entity that was not created (undefined for those that were); a chunk Redis refused before
 * writing fails its own entities (chunkRefusal). Entities are encoded chunk by chunk, so that encoding the next
 * chunk overlaps Redis applying the last.
 *
 * The outcome is that of save() called for each entity in order: each chunk of a model with a foreign key is one
 * script call, sent as soon as its lane takes it, so the calls reach Redis, and run, in the order of the
 * chunks; an entity may then name one of an earlier chunk (or, save-many.lua sees to it, of its own) as its
 * parent. (A chunk of such a model that sets no foreign key goes through save-many.lua too: a draw, a check
 * and a MULTI, three round trips, would let the next chunk's script run before it.)
 */
export async function createMany(
  model: ModelDescriptor,
  entities: readonly object[],
  chunkSize: number,
): Promise<Array<Error | undefined>> {
  const errors = new Array<Error | undefined>(entities.length);
  const connection = activeConnection();
  const store = new BulkStore(model, connection);
  const parents = parentChecks(model, connection);
  const lost = new LostReplies(model);
  // ids kept from a create whose reply was lost are sent again: not by position
  const keptIds = model.idStrategy !== 'given' && entities.some((entity) => stateOf(entity).id !== undefined);
  // When every new object takes the plain path (sequence ids, nothing to check, no foreign key), one INCRBY
  // draws the ids of the whole call first, the entity at position p taking first + p: a chunk then needs no
  // round trip before its write, which would wait behind the chunks already sent. An entity its codecs refuse
  // leaves its id unused.
  if (entities.length > 0 && parents.length === 0 && createsWithoutChecks(model) && !keptIds) {
    const target = onlyTarget(model, connection.prefix);
    let first: number;
    try {
      first = await store.drawIds(target, entities.length);
    } catch (error) {
      refuseAll(model, entities, errors, error);
      return errors;
    }
    const fields = model.dynamicProperty === undefined ? snapshotFields(model) : undefined;
    const create: PlainCreate = { model, store, target, first, entities, errors, fields, lost };
    const insert = (from: number, to: number) => insertChunk(create, from, to);
    // a few small chunks one at a time, then the window (RAMP_CHUNKS in bulk-options.ts says why)
    const small = firstChunks(entities.length, chunkSize);
    await inRanges(0, small.objects, small.size, 1, insert);
    await inRanges(small.objects, entities.length, chunkSize, CREATES_IN_FLIGHT, insert);
    await lost.settle();
    return errors;
  }
  let drawn: string[] | undefined;
  if (model.idStrategy === 'sequence' && entities.length > 0) {
    try {
      drawn = await drawnIds(model, store, connection.prefix, entities);
    } catch (error) {
      refuseAll(model, entities, errors, error);
      return errors;
    }
  }
  const uuids = model.idStrategy === 'uuid';
  const given = model.idStrategy === 'given';
  await inRanges(0, entities.length, chunkSize, CREATES_IN_FLIGHT, async (from, to) => {
    const pending: PendingCreate[] = [];
    for (let at = from; at < to; at++) {
      try {
        prepareWrite(model, entities[at], true);
        const fields = encodeAttributes(model, entities[at]);
        refuseCrossSlotParent(parents, fields);
        const state = stateOf(entities[at]);
        const id = given ? requiredGivenId(model, entities[at], state) : uuids ? (state.id ?? uuidv4()) : drawn![at];
        pending.push({ at, id, fields });
      } catch (error) {
        errors[at] = asError(error);
      }
    }
    // One call per key base, sent together: a new sequence-id object of a sharded model goes to the next shard
    // in turn, as with save(), and draws its id from that shard's sequence; a given id (uuid) to its own shard.
    const groups = groupByTarget(pending, (item) => bulkTarget(model, connection.prefix, item.id || undefined));
    await Promise.all(
      groups.map(async ({ target, items }) => {
        if (items.length === 0) return;
        let outcomes: Array<SaveOutcome | Error>;
        try {
          outcomes = await store.create(target, items, parents);
        } catch (error) {
          if (
            lost.take(
              error,
              items.map((item) => [stateOf(entities[item.at]), item.id, item.fields] as const),
            )
          ) {
            for (const item of items) errors[item.at] = error as Error;
            return;
          }
          // the chunk refused before it wrote anything: its items fail, the others go on
          const refusal = chunkRefusal(error);
          if (!refusal) throw error;
          for (const item of items) errors[item.at] = refusal;
          return;
        }
        for (let i = 0; i < items.length; i++)
          errors[items[i].at] = applyOutcome(model, entities[items[i].at], items[i].fields, outcomes[i]);
      }),
    );
  });
  await lost.settle();
  return errors;
}

/** What every chunk of a plain create shares: the ids start at `first` (position p takes first + p). */
interface PlainCreate {
  readonly model: ModelDescriptor;
  readonly store: BulkStore;
  readonly target: BulkTarget;
  readonly first: number;
  readonly entities: readonly object[];
  readonly errors: Array<Error | undefined>;
  /** The model's fields, in the order its snapshots keep them (shared-snapshots.ts); none with dynamic attributes. */
  readonly fields: SnapshotFields | undefined;
  readonly lost: LostReplies;
}

/**
 * One chunk of a plain create, the entities at positions `from` to `to` (excluded): each entity encoded
 * straight into its HSET arguments (no map per object), written with one MULTI, then their values kept as the
 * objects' snapshots, a few objects to an array (shared-snapshots.ts), or for a model with dynamic attributes
 * those arguments themselves (hset-args.ts), without the key.
 */
async function insertChunk(
  { model, store, target, first, entities, errors, fields, lost }: PlainCreate,
  from: number,
  to: number,
): Promise<void> {
  const sink = new HsetArgsSink();
  // room for every attribute; dynamic attributes grow the arguments past it
  const width = model.attributes.length;
  // the chunk's objects, position by position (arrays, not an object per item: the hottest loop)
  const ats: number[] = [];
  const ids: string[] = [];
  const hsets: string[][] = [];
  for (let at = from; at < to; at++) {
    try {
      const args = newHsetArgs(width);
      prepareWrite(model, entities[at], true);
      encodeAttributesInto(model, entities[at], sink.use(args));
      sink.finish();
      ats.push(at);
      ids.push(String(first + at));
      hsets.push(args);
    } catch (error) {
      errors[at] = asError(error);
    }
  }
  try {
    await store.insertPlain(target, ids, hsets);
  } catch (error) {
    if (
      lost.take(
        error,
        ats.map((at, i) => [stateOf(entities[at]), ids[i], keptAfterWrite(hsets[i])] as const),
      )
    ) {
      for (const at of ats) errors[at] = error as Error;
      return;
    }
    // the chunk refused before it wrote anything (a key of another type): its items fail, the others go on
    const refusal = chunkRefusal(error);
    if (!refusal) throw error;
    for (const at of ats) errors[at] = refusal;
    return;
  }
  const kept = fields ? sharedSnapshots(fields, first, ats, hsets) : hsets.map(keptAfterWrite);
  for (let i = 0; i < ats.length; i++) {
    const state = stateOf(entities[ats[i]]);
    state.id = ids[i];
    state.stored = kept[i];
  }
}

/**
 * A plain create whose draw was refused (the sequence or `all` of another type, a sequence holding no integer):
 * nothing was written and no id drawn, so every entity fails, with the error save() would give it: its own
 * when it cannot be written at all (a codec refusing a value, a capped model's missing attribute), else the
 * draw's. An error that is no refusal (a connection lost) rejects the call.
 */
function refuseAll(model: ModelDescriptor, entities: readonly object[], errors: Array<Error | undefined>, error: unknown): void {
  const refusal = chunkRefusal(error);
  if (!refusal) throw error;
  for (let at = 0; at < entities.length; at++) {
    try {
      prepareWrite(model, entities[at], true);
      encodeAttributes(model, entities[at]);
      errors[at] = refusal;
    } catch (own) {
      errors[at] = asError(own);
    }
  }
}

/**
 * Sets the entity's id and snapshot from a stored create, or says why it was refused (as writeEntity does; an
 * error that refused the object alone is its own).
 */
function applyOutcome(model: ModelDescriptor, entity: object, fields: EncodedFields, outcome: SaveOutcome | Error): Error | undefined {
  if (outcome instanceof Error) return outcome;
  if ('id' in outcome) {
    const state = stateOf(entity);
    state.id = outcome.id;
    state.stored = fields;
    return undefined;
  }
  return refusal(model, entity, outcome, undefined);
}

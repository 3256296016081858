import { v4 as uuidv4 } from 'uuid';
import { Connection } from '../../redis/connection';
import { ArgumentError, CrossSlotError, TransactionRefusedError } from '../../errors/errors';
import { hashTagOf } from '../../keys/hash-tag';
import { ModelKeys } from '../../keys/model-keys';
import { encodeAttributes } from '../../mapper/attribute-encoder';
import { EncodedFields } from '../../mapper/encoded-fields';
import { isEmpty } from '../../mapper/change-set';
import { touchedIndexes } from '../../mapper/touched-indexes';
import { ModelDescriptor } from '../../model/model-descriptor';
import { descriptorOf } from '../../model/model-registry';
import { refuseCrossSlotParent, crossSlotRemoval } from '../../store/cross-slot';
import { ModelArgs, modelArgs } from '../../store/model-args';
import { parentChecks } from '../../store/parent-checks';
import { removalPlan, RemovalPlan } from '../../store/removal-program';
import { nextShard } from '../../store/shard-turns';
import type { TransactionRemove, TransactionSave } from '../../store/lua/transaction';
import { claimsUniques } from '../claimed-write';
import { EntityState, refuseRemoved, requireId, stateOf } from '../entity-state';
import { beforeWrite } from '../lifecycle/save-lifecycle';
import { beforeRemoval } from '../lifecycle/remove-lifecycle';
import { refuseFrozen } from '../writable-instance';
import { planEntityUpdate, prepareWrite, requiredGivenId } from '../write-entity';

/** One operation as the application listed it: `tx.save(entity)` or `tx.remove(entity)`. */
export interface Step {
  readonly kind: 'save' | 'remove';
  readonly entity: object;
}

/** A step made ready for transaction.lua, with what its instance takes once the write is made. */
export interface PreparedStep {
  readonly kind: 'save' | 'remove';
  readonly entity: object;
  readonly model: ModelDescriptor;
  readonly state: EntityState;
  readonly creating: boolean;
  /** What is sent; undefined for an update that changes nothing (its hooks still run). */
  readonly operation: TransactionSave | TransactionRemove | undefined;
  /** A save's snapshot once written: the fields of a create, the stored fields of an update's plan. */
  readonly snapshot?: EncodedFields;
  /** A removal's plan (it names the model of a restrict rule's refusal). */
  readonly removal?: RemovalPlan;
}

/**
 * The model sections of one transaction: one per key base written, each with its model-wide arguments. On a
 * cluster every base must share one hash tag: a transaction is one script, on one slot.
 */
export class Sections {
  readonly list: ModelArgs[] = [];
  private readonly byBase = new Map<string, number>();
  private first: { model: string; tag: string } | undefined;
  private readonly objects = new Set<string>();

  constructor(readonly connection: Connection) {}

  /** Refuses a second step on one object (ArgumentError): each object is written once in a transaction. */
  claimObject(model: ModelDescriptor, keys: ModelKeys, id: string): void {
    const key = keys.object(id);
    if (this.objects.has(key))
      throw new ArgumentError(`transaction: ${model.name} ${JSON.stringify(id)} is listed twice; each object is written once`);
    this.objects.add(key);
  }

  /** The section of `keys`, added when new; a CrossSlotError for a second hash tag on a cluster. */
  of(model: ModelDescriptor, keys: ModelKeys): number {
    const known = this.byBase.get(keys.base);
    if (known !== undefined) return known;
    const tag = hashTagOf(keys.base);
    this.first ??= { model: model.name, tag };
    if (this.connection.transport.isCluster && tag !== this.first.tag) {
      throw new CrossSlotError(
        `transaction: ${this.first.model} is under hash tag {${this.first.tag}} and ${model.name} under {${tag}}; one transaction ` +
          'is one script, on one slot of a Redis Cluster: write objects of one model, or of models of one group, @Model({ group })',
      );
    }
    this.list.push(modelArgs(model, keys));
    this.byBase.set(keys.base, this.list.length - 1);
    return this.list.length - 1;
  }
}

/** The error `thrown` stands for at step `index`: a refusal naming the object, or a misuse as it is. */
export function refusedAt(index: number, step: Step, model: ModelDescriptor, id: string | undefined, thrown: unknown): unknown {
  if (thrown instanceof ArgumentError || thrown instanceof CrossSlotError || thrown instanceof TransactionRefusedError) return thrown;
  return new TransactionRefusedError(index, step.entity, model.name, id, step.kind, thrown);
}

/** The model of a step's instance; an ArgumentError for what cannot be in a transaction. */
export function stepModel(step: Step): ModelDescriptor {
  const model = descriptorOf((step.entity as object).constructor);
  if (model.cap) {
    throw new ArgumentError(
      `transaction: ${model.name} is capped, and a trim could evict an object another step writes: save it on its own`,
    );
  }
  if (claimsUniques(model)) {
    throw new ArgumentError(
      `transaction: ${model.name} is sharded with unique values, which are claimed apart from the write: save it on its own`,
    );
  }
  return model;
}

/**
 * Where a create goes when it must land in a known shard (an idempotent create: its memo shares the object's
 * hash tag): the shard, and for a uuid model an id drawn in it.
 */
export interface Placement {
  readonly shard: number;
  readonly uuid?: string;
}

/** Step `index` made ready: its before-hooks and validation run, its write encoded; throws its refusal. */
export async function prepareStep(
  index: number,
  step: Step,
  model: ModelDescriptor,
  sections: Sections,
  validate: boolean,
  placement?: Placement,
): Promise<PreparedStep> {
  const { entity, kind } = step;
  const state = stateOf(entity);
  const { connection } = sections;
  const { prefix } = connection;
  try {
    if (kind === 'remove') {
      const id = requireId(model, entity);
      await beforeRemoval(model, entity);
      const keys = model.keysOf(prefix, id);
      sections.claimObject(model, keys, id);
      const removal = removalPlan(model, prefix, id);
      const crossing = crossSlotRemoval(removal, connection);
      if (crossing) throw crossing;
      const operation: TransactionRemove = { mode: 'r', section: sections.of(model, keys), id, table: removal.args };
      return { kind, entity, model, state, creating: false, operation, removal };
    }
    if (model.version) refuseFrozen(model, entity, 'transaction');
    refuseRemoved(model, entity);
    const creating = state.stored === undefined;
    await beforeWrite(model, entity, creating, validate);
    const parents = parentChecks(model, connection);
    if (creating) {
      prepareWrite(model, entity, true);
      const fields = encodeAttributes(model, entity);
      refuseCrossSlotParent(parents, fields);
      const id =
        model.idStrategy === 'given'
          ? requiredGivenId(model, entity, state)
          : model.idStrategy === 'uuid'
            ? (placement?.uuid ?? uuidv4())
            : '';
      const keys = id === '' ? model.shardKeys(prefix)[placement?.shard ?? nextShard(model)] : model.keysOf(prefix, id);
      if (id !== '') sections.claimObject(model, keys, id);
      const changes = { set: fields, removed: [] };
      const operation: TransactionSave = {
        mode: 'c',
        section: sections.of(model, keys),
        id,
        readVersion: undefined,
        changes,
        indexes: model.indexes,
        parents,
      };
      return { kind, entity, model, state, creating, operation, snapshot: fields };
    }
    const id = state.id!;
    sections.claimObject(model, model.keysOf(prefix, id), id);
    const plan = planEntityUpdate(model, entity, state);
    refuseCrossSlotParent(parents, plan.changes.set);
    const operation: TransactionSave | undefined = isEmpty(plan.changes)
      ? undefined
      : {
          mode: 'u',
          section: sections.of(model, model.keysOf(prefix, id)),
          id,
          readVersion: plan.readVersion,
          changes: plan.changes,
          indexes: touchedIndexes(model, plan.changes),
          parents,
        };
    return { kind, entity, model, state, creating, operation, snapshot: plan.stored };
  } catch (error) {
    throw refusedAt(index, step, model, kind === 'remove' || state.stored !== undefined ? state.id : undefined, error);
  }
}

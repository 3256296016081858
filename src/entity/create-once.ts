import { v4 as uuidv4 } from 'uuid';
import { ArgumentError } from '../errors/errors';
import { knownOptions } from '../errors/options-argument';
import { shardOfId } from '../keys/shard-tags';
import { DEFAULT_IDEMPOTENCY_TTL_MS, idempotencyKey, idempotencyTtlMs } from '../model/idempotency';
import { ModelDescriptor } from '../model/model-descriptor';
import { descriptorOf } from '../model/model-registry';
import { operationReplicaPolicy } from '../model/replica-policy';
import type { AttributeInput, CreateOptions, EntityClass, Persisted } from '../types/entity-types';
import { buildEntity } from './build-entity';
import { serialized, StatefulEntity } from './entity-state';
import { findOrFailOne } from './find-by-id';
import { CREATE_OPTIONS } from './option-names';
import { runTransaction } from './transaction/run-transaction';
import type { Placement } from './transaction/transaction-steps';
import { validateOption } from './validate-option';

/** create(): a built instance's save(), or with an idempotency key createOnce. */
export function createEntity<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  attributes: AttributeInput<T>,
  options: CreateOptions,
): Promise<Persisted<T>> {
  if (options !== null && typeof options === 'object' && options.idempotencyKey !== undefined) return createOnce(ctor, attributes, options);
  return (buildEntity(ctor, attributes) as unknown as { save(options: CreateOptions): Promise<Persisted<T>> }).save(options);
}

/**
 * create(attributes, { idempotencyKey }): the create and a memo of the key (`<base>:idem:<key>`, the id it stored,
 * with the key's time to live) written in one script call. A retry finds the memo first, writes nothing, and
 * resolves with the stored object (read by its id: a NotFoundError when it was removed since). The memo lives
 * under the object's hash tag: of a sharded model, in the shard the key picks, where the object goes too.
 */
export async function createOnce<T extends StatefulEntity>(
  ctor: EntityClass<T>,
  attributes: AttributeInput<T>,
  options: CreateOptions,
): Promise<Persisted<T>> {
  const settings = knownOptions('create', options, CREATE_OPTIONS);
  const model = descriptorOf(ctor);
  const fail = (message: string) => new ArgumentError(`${model.name}.create: ${message}`);
  const key = idempotencyKey(settings.idempotencyKey, fail);
  const ttlMs = idempotencyTtlMs(settings.idempotencyTtl, fail) ?? model.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
  const validate = validateOption('create', settings.validate);
  const replicas = operationReplicaPolicy(model.name, settings, model.replicas);
  const entity = buildEntity(ctor, attributes);
  const idempotency = { key, ttlMs, placement: placementOf(model, key) };
  const replay = await serialized(entity, () => runTransaction({ steps: [{ kind: 'save', entity }], validate, idempotency, replicas }));
  return replay === undefined ? (entity as Persisted<T>) : findOrFailOne(ctor, replay);
}

/** The shard an idempotency key picks on a sharded model (a uuid drawn in it), so that every retry looks there. */
function placementOf(model: ModelDescriptor, key: string): Placement | undefined {
  if (model.shards === 1 || model.idStrategy === 'given') return undefined;
  const shard = shardOfId(key, model.shards, false);
  if (model.idStrategy === 'sequence') return { shard };
  for (;;) {
    const uuid = uuidv4();
    if (shardOfId(uuid, model.shards, false) === shard) return { shard, uuid };
  }
}

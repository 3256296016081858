import type { FindManyOptions, RemoveByOptions, RemoveManyOptions, SaveManyOptions } from '../types/bulk-types';
import type { CreateOptions, SaveOptions } from '../types/entity-types';
import type { UpdateOptions, UpsertOptions } from '../types/write-types';
import type { LockOptions } from './locking';

/**
 * The option names each write, bulk and lock call takes (knownOptions refuses any other: a misspelt `waitReplica`
 * would otherwise be ignored, and the call would not wait for any replica).
 */
const REPLICA_OPTIONS = ['validate', 'waitReplicas', 'waitTimeoutMs'] as const satisfies ReadonlyArray<keyof SaveOptions>;
export const SAVE_OPTIONS = [...REPLICA_OPTIONS, 'ttl'] as const satisfies ReadonlyArray<keyof SaveOptions>;
export const SAVE_MANY_OPTIONS = [...REPLICA_OPTIONS, 'chunkSize'] as const satisfies ReadonlyArray<keyof SaveManyOptions>;
export const UPDATE_OPTIONS = ['validate', 'ttl'] as const satisfies ReadonlyArray<keyof UpdateOptions>;
export const UPSERT_OPTIONS = [...UPDATE_OPTIONS, 'on', 'update'] as const satisfies ReadonlyArray<keyof UpsertOptions<object>>;
/** create() with an idempotency key: its own time to live is not taken (the key's memo would outlive it). */
export const CREATE_OPTIONS = [...REPLICA_OPTIONS, 'idempotencyKey', 'idempotencyTtl'] as const satisfies ReadonlyArray<
  keyof CreateOptions
>;
export const REMOVE_MANY_OPTIONS = ['chunkSize'] as const satisfies ReadonlyArray<keyof RemoveManyOptions>;
export const REMOVE_BY_OPTIONS = ['all', 'batchSize'] as const satisfies ReadonlyArray<keyof RemoveByOptions>;
export const FIND_MANY_OPTIONS = ['chunkSize'] as const satisfies ReadonlyArray<keyof FindManyOptions>;
export const LOCK_OPTIONS = ['ttlMs', 'waitMs'] as const satisfies ReadonlyArray<keyof LockOptions>;

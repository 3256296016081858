import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../model/model-descriptor';
import { pushSpecs } from './index-specs';

/**
 * The model-wide arguments of the write scripts, put together in this one place: each script module takes them
 * from here and places them where its header says (save.lua, save-many.lua, update-many.lua, increment.lua,
 * expire.lua, persist.lua, repair-object.lua). Made once per model and key base (a shard's keys differ), since
 * a model's definition does not change once declared.
 */
export interface ModelArgs {
  readonly keys: ModelKeys;
  /** The time to live in ms of a new object; '' none. */
  readonly ttl: string;
  /** The memo flag (memoFlagOf). */
  readonly memo: MemoFlag;
  /** '1' when the model's objects keep a memo of their entries (a ttl or a cap), else '0'. */
  readonly keepsMemo: '0' | '1';
  /** The @Version field; '' none. */
  readonly version: string;
  /** The cap's attribute field, undefined without a cap. */
  readonly capField: string | undefined;
  /** The cap's index key ('' none), how many objects it keeps ('' none), and 'asc' when it keeps the lowest. */
  readonly capKey: string;
  readonly capKeep: string;
  readonly capOrder: 'asc' | 'desc';
  /** The id form (idFormOf). */
  readonly idForm: string;
  /** '1' when ids are sequence numbers, else '0'. */
  readonly sequenceIds: '0' | '1';
  /** `k, then k index specs`: every index of the model. */
  readonly specs: readonly string[];
  /** What a cap's trim evicts objects without a memo with: `specs` for a capped model, else `0`. */
  readonly trimSpecs: readonly string[];
}

/**
 * The memo flag of save.lua, save-many.lua and update-many.lua: whether a new object keeps a memo of its entries
 * (a ttl, a cap) and whether the model's objects can expire, so that a create sweeps up to 10 whose time has
 * come: '0' neither, '1' memo, 'e' expirable, 'E' both.
 */
export type MemoFlag = '0' | '1' | 'e' | 'E';

export function memoFlagOf(keepsMemo: boolean, expirable: boolean): MemoFlag {
  if (expirable) return keepsMemo ? 'E' : 'e';
  return keepsMemo ? '1' : '0';
}

/**
 * The id form of the scripts that draw or order ids: '0' given ids, '1' sequence ids, 'n:s' the sequence of
 * shard s of a model sharded n ways (save.lua's ARGV[10]).
 */
export function idFormOf(sequenceIds: boolean, keys: ModelKeys): string {
  if (!sequenceIds) return '0';
  return keys.shard === undefined ? '1' : `${keys.shard.count}:${keys.shard.index}`;
}

const made = new WeakMap<ModelKeys, { model: ModelDescriptor; args: ModelArgs }>();

/** The model-wide arguments of `model` under `keys` (one shard's keys for a sharded model). */
export function modelArgs(model: ModelDescriptor, keys: ModelKeys): ModelArgs {
  const cached = made.get(keys);
  if (cached && cached.model === model) return cached.args;
  const cap = model.cap;
  const specs: string[] = [];
  pushSpecs(specs, model.indexes);
  const sequenceIds = model.idStrategy === 'sequence';
  const args: ModelArgs = {
    keys,
    ttl: model.ttlMs !== undefined ? String(model.ttlMs) : '',
    memo: memoFlagOf(model.keepsMemo, model.expirable),
    keepsMemo: model.keepsMemo ? '1' : '0',
    version: model.version?.field ?? '',
    capField: cap?.index.attribute.field,
    capKey: cap ? keys.sorted('score', cap.index.attribute.field) : '',
    capKeep: cap ? String(cap.keep) : '',
    capOrder: cap?.keepLowest ? 'asc' : 'desc',
    idForm: idFormOf(sequenceIds, keys),
    sequenceIds: sequenceIds ? '1' : '0',
    specs,
    trimSpecs: cap ? specs : ['0'],
  };
  made.set(keys, { model, args });
  return args;
}

import { ModelKeys } from '../keys/model-keys';
import { IndexDescriptor } from '../model/index-descriptor';
import { Cap, ModelDescriptor } from '../model/model-descriptor';
import { pushSpecs } from './index-specs';

/**
 * The model-wide arguments of the write scripts, put together in this one place: each script module takes them
 * from here and places them where its header says (save.lua, save-many.lua, update-many.lua, increment.lua,
 * expire.lua, persist.lua, repair-object.lua). Read from the model at each call: a few field reads, and the
 * index specs are written only by the scripts that take them.
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
  /**
   * The cap's index key ('' none), how many objects it keeps ('' none), and its order (capOrderOf). A cap per value
   * gives the stem its groups' index keys add `:<value>` to (`<base>:idx:<by>@<per>`), as each group is trimmed.
   */
  readonly capKey: string;
  readonly capKeep: string;
  readonly capOrder: string;
  /** The id form (idFormOf). */
  readonly idForm: string;
  /** '1' when ids are sequence numbers, else '0'. */
  readonly sequenceIds: '0' | '1';
  /** Every index of the model (pushSpecs writes them as the scripts read them). */
  readonly indexes: readonly IndexDescriptor[];
  /** The model has a cap. */
  readonly capped: boolean;
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

/**
 * The cap's order as the scripts read it (caps.lua's readCapOrder): 'desc' keeps the highest, 'asc' the lowest; a cap
 * per value appends '@' and the field of `per`, and '#' when that attribute holds numbers (whose -0 is 0 as a
 * group, as in a scoped index's key): `desc@userId`.
 */
export function capOrderOf(cap: Cap | undefined): string {
  const order = cap?.keepLowest ? 'asc' : 'desc';
  if (!cap?.per) return order;
  return `${order}@${cap.per.field}${cap.per.type === 'number' ? '#' : ''}`;
}

/** The model-wide arguments of `model` under `keys` (one shard's keys for a sharded model). */
export function modelArgs(model: ModelDescriptor, keys: ModelKeys): ModelArgs {
  const cap = model.cap;
  const sequenceIds = model.idStrategy === 'sequence';
  return {
    keys,
    ttl: model.ttlMs !== undefined ? String(model.ttlMs) : '',
    memo: memoFlagOf(model.keepsMemo, model.expirable),
    keepsMemo: model.keepsMemo ? '1' : '0',
    version: model.version?.field ?? '',
    capField: cap?.index.attribute.field,
    capKey: cap ? keys.sorted('score', cap.index.attribute.field) + (cap.per ? `@${cap.per.field}` : '') : '',
    capKeep: cap ? String(cap.keep) : '',
    capOrder: capOrderOf(cap),
    idForm: idFormOf(sequenceIds, keys),
    sequenceIds: sequenceIds ? '1' : '0',
    indexes: model.indexes,
    capped: cap !== undefined,
  };
}

/**
 * Appends what a cap's trim finds the entries of an evicted object without a memo with: `k, then k index specs`
 * of every index for a capped model (`capped`: the cap moves in this call), else `0`.
 */
export function pushTrimSpecs(args: Array<string | Buffer>, model: ModelArgs, capped = model.capped): void {
  if (capped) pushSpecs(args, model.indexes);
  else args.push('0');
}

import { Connection } from '../redis/connection';
import { claimedValue, claimKey } from '../keys/claim-keys';
import { caseFoldField, compositeParts, compositeValue, IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { callScript } from './entry-script';
import { claimUniqueScript } from './lua/claim-unique';
import { releaseUniqueScript } from './lua/release-unique';
import { EncodedFields } from '../mapper/encoded-fields';

/**
 * A claim younger than this is never taken over, even when its holder does not (yet) hold the value: the
 * holder may be between its claim and its write. Older claims whose holder does not hold the value are stale
 * (the holder was removed, expired, changed the value, or died before releasing) and are replaced.
 */
export const CLAIM_GRACE_MS = 10_000;

/** One unique value of one object: the index and the form it compares. */
export interface UniqueValue {
  readonly index: IndexDescriptor;
  readonly value: string;
}

/**
 * The hash fields holding what a unique index compares: the case-folded copy for `caseInsensitive`, a composite
 * unique's parts.
 */
function uniqueFields(index: IndexDescriptor): string[] {
  if (index.parts) return index.parts.map((part) => part.field);
  return [index.caseInsensitive ? caseFoldField(index.attribute.field) : index.attribute.field];
}

/** The value unique `index` compares, from stored fields (undefined when the object holds none). */
function comparedValue(index: IndexDescriptor, stored: (field: string) => string | undefined): string | undefined {
  if (index.parts) return compositeValue(compositeParts(index), stored);
  const value = stored(uniqueFields(index)[0]);
  return value === undefined ? undefined : claimedValue(value, index.attribute.type === 'number');
}

/** The unique values stored in `fields`, in the form the unique indexes compare (-0 is 0, folded case, composites joined). */
export function uniqueValues(model: ModelDescriptor, fields: EncodedFields): UniqueValue[] {
  const values: UniqueValue[] = [];
  for (const index of model.indexes) {
    if (index.kind !== 'unique') continue;
    const value = comparedValue(index, (field) => fields.get(field));
    if (value !== undefined) values.push({ index, value });
  }
  return values;
}

/** Whether two unique values are one: the same index and compared form. */
export function sameValue(a: UniqueValue, b: UniqueValue): boolean {
  return a.index === b.index && a.value === b.value;
}

/** The unique values an object holds, and its stored @Version (undefined without one). */
export interface HeldValues {
  readonly values: UniqueValue[];
  readonly version: string | undefined;
}

/** What claim() came to: the values the call took (not this object's before it), and the first one refused. */
export interface ClaimOutcome {
  /** Claimed by this call; a value the object's claim already named is not among them (it is not this call's to release). */
  readonly took: UniqueValue[];
  /** The first value another object holds (everything this call took is released again), else undefined. */
  readonly taken?: UniqueValue;
}

/**
 * Uniqueness across the shards of a sharded model: before an object is written with a unique value, the value
 * is claimed under a key of its own (tagged by the value, so any shard's object can claim it); the claim is
 * released when the write fails or when the object lets the value go. See docs/cluster.md for what holds when.
 */
export class UniqueClaims {
  constructor(
    private readonly model: ModelDescriptor,
    private readonly connection: Connection,
  ) {}

  private key(value: UniqueValue): string {
    return claimKey(this.connection.prefix, this.model.name, this.model.tenant, value.index.attribute.field, value.value);
  }

  /**
   * Claims every value for `id`, all at once. When another object holds one, releases what this call took (never
   * a claim the object held before the call) and names the value.
   */
  async claim(id: string, values: readonly UniqueValue[]): Promise<ClaimOutcome> {
    const results = await Promise.all(values.map((value) => this.claimOne(id, value)));
    const took = values.filter((_, i) => results[i] === 'took');
    const taken = values.find((_, i) => results[i] === 'refused');
    if (!taken) return { took };
    await this.release(id, took);
    return { took: [], taken };
  }

  /** Frees claims `id` holds (compare-and-delete: another object's claim is never touched). */
  async release(id: string, values: readonly UniqueValue[]): Promise<void> {
    const client = this.connection.client;
    await Promise.all(values.map((value) => callScript(client, releaseUniqueScript, { key: this.key(value), holder: id })));
  }

  /**
   * The unique values of `indexes` object `id` holds now, read from its shard (one HMGET); none when the
   * object does not exist.
   */
  async stored(id: string, indexes: readonly IndexDescriptor[] = this.model.indexes): Promise<UniqueValue[]> {
    if (!indexes.some((index) => index.kind === 'unique')) return [];
    return (await this.storedIfLive(id, indexes))?.values ?? [];
  }

  /**
   * As stored(), with the object's `#id` (and its @Version field, if any) read in the same HMGET: undefined when
   * the object does not exist (it was removed, or has expired), so that an update refused for a value another
   * object holds can be refused for what save.lua would find first: the object gone, or its version moved on.
   */
  async storedIfLive(id: string, indexes: readonly IndexDescriptor[] = this.model.indexes): Promise<HeldValues | undefined> {
    const fields = [...new Set(indexes.filter((index) => index.kind === 'unique').flatMap((index) => uniqueFields(index)))];
    const keys = this.model.keysOf(this.connection.prefix, id);
    const versionField = this.model.version?.field;
    const read = await this.connection.client.hmGet(keys.object(id), ['#id', versionField ?? '#id', ...fields]);
    if (read[0] === null || read[0] === undefined) return undefined;
    const found: EncodedFields = new Map();
    fields.forEach((field, i) => {
      const value = read[i + 2];
      if (value !== null && value !== undefined) found.set(field, String(value));
    });
    const version = versionField === undefined || read[1] === null || read[1] === undefined ? undefined : String(read[1]);
    return { values: uniqueValues(this.model, found).filter((value) => indexes.includes(value.index)), version };
  }

  /** 'took' when the claim is now `id`'s and was not, 'held' when it was `id`'s already, else 'refused'. */
  private async claimOne(id: string, value: UniqueValue): Promise<'took' | 'held' | 'refused'> {
    const key = this.key(value);
    let replace = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const reply = await callScript(this.connection.client, claimUniqueScript, { key, id, replace });
      if ('claimed' in reply) return reply.claimed;
      if (reply.age < CLAIM_GRACE_MS || (await this.holds(reply.standing.split(' ')[0], value))) return 'refused';
      replace = reply.standing;
    }
    return 'refused';
  }

  /** Whether object `holder` exists and holds the value (read from its shard). */
  private async holds(holder: string, value: UniqueValue): Promise<boolean> {
    const fields = uniqueFields(value.index);
    const read = await this.connection.client.hmGet(this.model.keysOf(this.connection.prefix, holder).object(holder), fields);
    const stored = (field: string) => {
      const found = read[fields.indexOf(field)];
      return found === null || found === undefined ? undefined : String(found);
    };
    return comparedValue(value.index, stored) === value.value;
  }
}

import { allApplied } from '../errors/command-errors';
import { isWrongType } from '../errors/wrong-type';
import { ModelKeys } from '../keys/model-keys';
import { fieldsFromReply } from '../mapper/attribute-encoder';
import { EncodedFields } from '../mapper/encoded-fields';
import { ModelDescriptor } from '../model/model-descriptor';
import { Connection } from '../redis/connection';
import { callScript } from './entry-script';
import { KeyType, namingWrongType } from './expect-types';
import { countScript } from './lua/count';

/**
 * The reads of ObjectStore: objects, existence, counts and time to live, with native commands (count.lua only
 * when objects may be due to expire).
 */

/**
 * Reads one object: one HGETALL of its hash. An object is its hash: every write that creates or removes the
 * hash makes or drops its `all` entry and index entries in the same step (a script or a MULTI), so the hash
 * alone says whether the object exists at that instant, as exists() reads it. Null when there is no hash (never
 * created, removed, or expired: its id may stay in `all` until a sweep) or when it is not this object's
 * (its `#id` field is not `id`: a hash written by something else). One command instead of a MULTI of ZSCORE
 * `all` + HGETALL: Redis parses and runs one command instead of four, and node-redis keeps one record until the
 * reply.
 */
export function loadOne(model: ModelDescriptor, connection: Connection, id: string): Promise<EncodedFields | null> {
  return connection.client.hGetAllPairs(model.keysOf(connection.prefix, id).object(id)).then((reply) => objectFields(id, reply), noObject);
}

/**
 * Reads any number of objects in one round trip: one MULTI of an HGETALL per id, so every hash is read at one
 * instant; each answer is read as loadOne's.
 */
export async function loadMany(
  model: ModelDescriptor,
  connection: Connection,
  ids: readonly string[],
): Promise<Array<EncodedFields | null>> {
  if (ids.length === 0) return [];
  const loaded: Array<EncodedFields | null> = new Array(ids.length).fill(null);
  /** Reads the ids at `positions` (every id, in order, when undefined) from one shard, in one transaction. */
  const read = async (keys: ModelKeys, positions?: readonly number[]) => {
    const shardIds = positions ? positions.map((at) => ids[at]) : ids;
    const commands = shardIds.map((id) => ['HGETALL', keys.object(id)]);
    const replies = readsOf(await connection.transport.transaction(commands, keys.all));
    for (let i = 0; i < shardIds.length; i++) loaded[positions ? positions[i] : i] = objectFields(shardIds[i], replies[i]);
  };
  const shards = model.shardKeys(connection.prefix);
  if (shards.length === 1) {
    await read(shards[0]);
    return loaded;
  }
  // one transaction per shard (a transaction stays in one slot), all sent at once
  const byShard = new Map<ModelKeys, number[]>();
  ids.forEach((id, at) => {
    const keys = model.keysOf(connection.prefix, id);
    const positions = byShard.get(keys);
    if (positions) positions.push(at);
    else byShard.set(keys, [at]);
  });
  await Promise.all([...byShard].map(([keys, positions]) => read(keys, positions)));
  return loaded;
}

/**
 * Live objects: expired ones not yet swept are not counted. A model whose objects cannot expire answers with
 * ZCARD of `all`. An expirable one without a ttl sends ZCARD all + ZCARD exp in one MULTI, exact while none of
 * its objects has a TTL; otherwise count.lua subtracts the objects whose time has come, by the server's clock
 * (models with a ttl go there directly).
 */
export function countObjects(model: ModelDescriptor, connection: Connection): Promise<number> {
  const shards = model.shardKeys(connection.prefix);
  if (shards.length === 1) return countShard(model, connection, shards[0]);
  return Promise.all(shards.map((keys) => countShard(model, connection, keys))).then((counts) => counts.reduce((sum, n) => sum + n, 0));
}

/** Not async on the common path: a bare ZCARD is the reply's promise itself, with no tick added. */
function countShard(model: ModelDescriptor, connection: Connection, keys: ModelKeys): Promise<number> {
  const client = connection.client;
  const expected: KeyType[] = [[keys.all, 'zset']];
  if (!model.expirable) return client.zCard(keys.all).catch((error: unknown) => namingWrongType(client, error, expected));
  expected.push([keys.expiring, 'zset']);
  return countExpirable(model, connection, keys).catch((error: unknown) => namingWrongType(client, error, expected));
}

async function countExpirable(model: ModelDescriptor, connection: Connection, keys: ModelKeys): Promise<number> {
  if (model.ttlMs === undefined) {
    const [live, expiring] = allApplied(await connection.client.multi().zCard(keys.all).zCard(keys.expiring).exec());
    if (Number(expiring) === 0) return Number(live);
  }
  return callScript(connection.client, countScript, keys);
}

/** A read of an object's key that holds another type than a hash: no object (as check() reads it). */
function noObject(error: unknown): null {
  if (isWrongType(error)) return null;
  throw error;
}

/**
 * The replies of a transaction of object reads: a read that met a key of another type is no object (an empty
 * reply); any other refusal is thrown.
 */
function readsOf(replies: unknown[]): unknown[] {
  return replies.map((reply) => {
    if (!(reply instanceof Error)) return reply;
    if (isWrongType(reply)) return [];
    throw reply;
  });
}

/** The fields of the object `id` from its hash's HGETALL reply; null when the hash is not that object's. */
function objectFields(id: string, reply: unknown): EncodedFields | null {
  const fields = fieldsFromReply(reply);
  return fields.get('#id') === id ? fields : null;
}

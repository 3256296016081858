import { ArgumentError, QueryError } from '../errors/errors';
import { knownOptions } from '../errors/options-argument';
import { normalizeId } from '../keys/id-format';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { Connection } from '../redis/connection';
import { callScript } from '../store/entry-script';
import { rankScript } from '../store/lua/rank';
import { isPlainObject } from '../util/plain-object';
import { describeValue } from '../util/describe-value';

/** What `Model.rank` takes, unchecked (the typed form is RankOptions, src/types/where-types.ts). */
interface GivenRank {
  readonly by?: unknown;
  readonly order?: unknown;
  readonly per?: unknown;
}

/**
 * The 0-based position of object `id` in the order `find({ orderBy: { [by]: order } })` reads the index of `by`
 * (within the object's own value of `per`, for an index scoped by it): ties by id, 'desc' the exact reverse of
 * 'asc'. Null when the object does not exist or is in no such index (its `per` attribute absent). One script call;
 * a sharded model's object is read first, then counted in every shard at once, and the counts summed.
 */
export async function rankOf(model: ModelDescriptor, connection: Connection, id: unknown, given: unknown): Promise<number | null> {
  const normalized = normalizeId(model.name, id);
  const { index, desc } = rankIndex(model, given);
  const sequenceIds = model.idStrategy === 'sequence';
  const client = connection.client;
  const own = model.keysOf(connection.prefix, normalized);
  if (model.shards === 1) {
    return (await callScript(client, rankScript, { keys: own, id: normalized, index, desc, sequenceIds })) as number | null;
  }
  const fields = [index.attribute.field, index.scope?.field ?? '#id', '#id'];
  const [value, scope, exists] = await client.hmGet(own.object(normalized), fields);
  if (exists === null || exists === undefined) return null;
  const values = { value: value ?? undefined, scope: index.scope ? (scope ?? undefined) : undefined };
  if (index.scope && values.scope === undefined) return null;
  const counts = await Promise.all(
    model
      .shardKeys(connection.prefix)
      .map((keys) => callScript(client, rankScript, { keys, id: normalized, index, desc, sequenceIds, values })),
  );
  let position = 0;
  for (const count of counts) {
    if (count === null || typeof count !== 'object') continue;
    // ties of ids not in sequence order come in byte order (as Redis orders them): those before the object's id
    position += count.before + count.ties.filter((tie) => Buffer.compare(Buffer.from(tie), Buffer.from(normalized)) < 0 !== desc).length;
  }
  return position;
}

/** The ordered index `by` names (scoped by `per` when given), and the direction; a QueryError when there is none. */
function rankIndex(model: ModelDescriptor, given: unknown): { index: IndexDescriptor; desc: boolean } {
  if (!isPlainObject(given))
    throw new ArgumentError(`${model.name}.rank takes an id and { by, order?, per? }, got ${describeValue(given)}`);
  const { by, order, per } = knownOptions('rank', given as GivenRank, ['by', 'order', 'per']);
  if (order !== undefined && order !== 'asc' && order !== 'desc') {
    throw new ArgumentError(`${model.name}.rank: order must be 'asc' or 'desc', got ${describeValue(order)}`);
  }
  const attribute = typeof by === 'string' ? model.attribute(by) : undefined;
  if (!attribute) throw new QueryError(`${model.name}.rank: by must name an attribute of the model, got ${describeValue(by)}`);
  const kind = attribute.type === 'number' || attribute.type === 'date' ? 'score' : 'lex';
  const ordered = model.indexes.filter((index) => index.attribute === attribute && index.kind === kind);
  const index = ordered.find((candidate) => (per === undefined ? !candidate.scope : candidate.scope?.property === per));
  if (!index) {
    const scopes = ordered.filter((candidate) => candidate.scope).map((candidate) => `per: '${candidate.scope!.property}'`);
    const needed = kind === 'score' ? '@Index()' : '@Index({ sortable: true })';
    const which = per === undefined ? `no unscoped ordered index (${needed})` : `no ordered index scoped by ${describeValue(per)}`;
    const hint = scopes.length > 0 ? `; its scoped indexes are ranked with ${scopes.join(' or ')}` : '';
    throw new QueryError(`${model.name}.rank: ${by as string} has ${which}${hint}`);
  }
  return { index, desc: order === 'desc' };
}

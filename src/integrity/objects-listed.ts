import { StoredDefinition } from '../schema/stored-definition';
import { DefinitionLookup, modelScope, shardScopes } from './model-scope';
import { raw, unlessWrongType } from './raw-commands';
import { tenantsOf } from './tenants-of';

/**
 * How many objects the keys `definition` names list in `all`: outside tenants and in every tenant found
 * holding data, in each shard. reindex() asks it of a stored definition whose layout (group, shards) is no longer
 * the model's, before it replaces it: the objects stored under the old keys would be out of every tool's sight.
 * An `all` of another type counts as one (it is data the old layout holds, whatever it is).
 */
export async function objectsListed(
  client: unknown,
  prefix: string,
  definition: StoredDefinition,
  lookup: DefinitionLookup,
  batchSize: number,
): Promise<number> {
  const tenants = [undefined, ...(await tenantsOf(client, prefix, definition, batchSize))];
  const scopes = tenants.flatMap((tenant) => shardScopes(modelScope(client, prefix, definition, lookup, tenant)));
  const counts = await Promise.all(scopes.map((scope) => unlessWrongType(raw(client).zCard(scope.keys.all), 1)));
  return counts.reduce((sum: number, count) => sum + Number(count), 0);
}

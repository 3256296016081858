import { activeConnection } from '../redis/connection';
import { checkScope } from '../integrity/check-model';
import { modelScope, ModelScope } from '../integrity/model-scope';
import { reindexModel, ReindexResult } from '../integrity/reindex-model';
import { repairScope } from '../integrity/repair-model';
import { CheckResult, IntegrityOptions, RepairResult } from '../integrity/violations';
import { ModelDescriptor } from '../model/model-descriptor';
import { allModels } from '../model/model-registry';
import { describeModel } from '../schema/describe-model';
import { schemaPending } from '../schema/first-use';
import { storedDefinition } from '../schema/schema-registry';
import { compareDefinitions, SchemaStatus } from '../schema/schema-status';
import { recomputeValues } from './recompute-values';

/**
 * What BaseEntity's check(), repair(), reindex() and schemaStatus() run: the model's descriptor turned into
 * its stored form (describeModel), handed to the integrity tools, which know nothing of classes.
 */
function lookup(name: string) {
  const model = allModels().find((m) => m.name === name);
  return model && describeModel(model);
}

function scopeOf(model: ModelDescriptor): ModelScope {
  const { client, prefix } = activeConnection();
  return modelScope(client, prefix, describeModel(model), lookup, model.tenant);
}

// async, as every operation: without a connection, scopeOf's ConnectionError is a rejection, not a throw at the call
export async function checkEntityModel(model: ModelDescriptor, options?: IntegrityOptions): Promise<CheckResult> {
  return checkScope(scopeOf(model), options);
}

export async function repairEntityModel(model: ModelDescriptor, options?: IntegrityOptions): Promise<RepairResult> {
  return repairScope(scopeOf(model), options);
}

export async function reindexEntityModel(model: ModelDescriptor, options?: IntegrityOptions): Promise<ReindexResult> {
  await schemaPending(model);
  // stored @Computed values first: the index entries built next are of their current values
  const recomputed = await recomputeValues(model);
  const { client, prefix } = activeConnection();
  return { ...(await reindexModel(client, prefix, describeModel(model), lookup, options)), recomputed };
}

export async function schemaStatusOf(model: ModelDescriptor): Promise<SchemaStatus> {
  await schemaPending(model);
  const { client, prefix } = activeConnection();
  return compareDefinitions(await storedDefinition(client, prefix, model.name), describeModel(model));
}

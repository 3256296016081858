/**
 * `redis-record/admin`: the tools that work on what is stored, without the application's classes: the stored
 * model definitions, and check, repair and reindex of one model's keys (docs/operations.md). The command-line
 * tool is built on them.
 */
export { storedDefinitions, storedDefinition, registryKey } from './schema/schema-registry';
export type { StoredDefinition, StoredAttribute, StoredIndex, StoredRelation } from './schema/stored-definition';
export { modelScope } from './integrity/model-scope';
export type { ModelScope, DefinitionLookup } from './integrity/model-scope';
export { checkScope } from './integrity/check-model';
export { repairScope } from './integrity/repair-model';
export { reindexModel } from './integrity/reindex-model';
export type { CheckResult, RepairResult, Violation, ViolationKind, IntegrityOptions } from './integrity/violations';
export type { ReindexResult } from './integrity/reindex-model';

import { DEFAULT_PREFIX as CONNECT_DEFAULT_PREFIX } from './connect/connect-options';

/**
 * `redis-record/admin`: the tools that work on what is stored, without the application's classes: the stored
 * model definitions, the scopes of a model (outside tenants, each tenant), and check, repair, reindex, sweep and
 * inspection of one scope's keys (docs/operations.md). The command-line tool is built on these alone.
 */

/** The prefix connect() uses when given none. */
export const DEFAULT_PREFIX: string = CONNECT_DEFAULT_PREFIX;

// the stored model definitions
export { storedDefinitions, storedDefinition, registryKey } from './schema/schema-registry';
export { readStoredDefinitions } from './admin/stored-definitions';
export type { StoredDefinitions } from './admin/stored-definitions';
export { storedPrefixes } from './admin/stored-prefixes';
export { indexName } from './schema/stored-definition';
export type { StoredDefinition, StoredAttribute, StoredIndex, StoredRelation } from './schema/stored-definition';

// scopes: one model, outside tenants or in one tenant
export { modelScope } from './integrity/model-scope';
export type { ModelScope, DefinitionLookup } from './integrity/model-scope';
export { checkScopeNames } from './admin/scope-names';
export { findTenants } from './admin/scope-tenants';
export type { FindTenantsOptions } from './admin/scope-tenants';

// integrity: check, repair, reindex
export { checkScope } from './integrity/check-model';
export { repairScope } from './integrity/repair-model';
export { reindexModel } from './integrity/reindex-model';
export { rebuildIndexes } from './admin/rebuild-indexes';
export type { RebuildOptions, RebuildResult } from './admin/rebuild-indexes';
export type { CheckResult, RepairResult, Violation, ViolationKind, IntegrityOptions } from './integrity/violations';
export type { ReindexResult } from './integrity/reindex-model';

// expiry
export { sweepScope } from './admin/sweep-scope';
export type { SweepOptions } from './admin/sweep-scope';

// inspection: counts, memory, one object
export { countObjects } from './admin/object-counts';
export type { ObjectCounts } from './admin/object-counts';
export { measureScope, MEMORY_SAMPLE_SIZE } from './admin/scope-usage';
export type { ScopeUsage, IndexUsage } from './admin/scope-usage';
export { inspectObject } from './admin/inspect-object';
export type { StoredObject, IndexEntryState, MembershipSet } from './admin/inspect-object';
export type { DecodedAttribute } from './admin/decode-attributes';

// the server, and secrets in messages
export { assertFitServer } from './admin/server-fit';
export { redactUrl, redactSecrets } from './redis/redact-url';

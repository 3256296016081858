import { ArgumentError } from '../errors/errors';
import { assertValidPrefix } from '../keys/prefix-format';
import { isValidTenant, TENANT_RULE } from '../keys/tenant-name';

/**
 * Throws an ArgumentError, saying what is allowed, when `prefix` (or `tenant`, when given) cannot name keys: a
 * prefix is a non-empty string without `{` or `}`, a tenant 1 to 64 characters of A-Z a-z 0-9 _ -. A tool
 * checks them before it connects, so that a typo is told apart from a server that holds nothing under them.
 */
export function checkScopeNames(prefix: string, tenant?: string): void {
  assertValidPrefix(prefix);
  if (tenant !== undefined && !isValidTenant(tenant)) throw new ArgumentError(`invalid tenant ${JSON.stringify(tenant)}: ${TENANT_RULE}`);
}

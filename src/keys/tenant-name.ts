/**
 * A tenant name: 1 to 64 characters of A-Z a-z 0-9 _ -. It goes inside the hash tag of every key of the
 * tenant (`{<tenant>/<tag>}`), so it can hold neither `/` nor a brace: a tenant can never forge another key.
 */
const TENANT = /^[A-Za-z0-9_-]{1,64}$/;

/** The rule, for messages. */
export const TENANT_RULE = '1 to 64 characters of A-Z a-z 0-9 _ -';

export function isValidTenant(tenant: unknown): tenant is string {
  return typeof tenant === 'string' && TENANT.test(tenant);
}

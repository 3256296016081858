import { createHash } from 'crypto';

/**
 * The claim key of one unique value of a sharded model: `<prefix>:{<tenant/><Model>@<attr>:<sha1>}:claim`. The
 * hash tag is the value's own (through its digest), so claims spread over the cluster and a claim is one key
 * in one slot whichever shard holds the object. The digest keeps keys short and free of `{`/`}` whatever the value.
 */
export function claimKey(prefix: string, model: string, tenant: string | undefined, attribute: string, value: string): string {
  const digest = createHash('sha1').update(value).digest('hex');
  return `${prefix}:{${tenant === undefined ? '' : `${tenant}/`}${model}@${attribute}:${digest}}:claim`;
}

/** A unique value in the form it is claimed (and compared) in: a number's stored `-0` is `0`. */
export function claimedValue(stored: string, numeric: boolean): string {
  return numeric && stored === '-0' ? '0' : stored;
}

/** The SCAN pattern matching every claim of a model (for the integrity checker), or of one of its attributes. */
export function claimPattern(prefix: string, model: string, tenant: string | undefined, attribute?: string): string {
  return `${prefix}:{${tenant === undefined ? '' : `${tenant}/`}${model}@${attribute === undefined ? '*' : `${attribute}:*`}}:claim`;
}

import { allApplied } from '../errors/command-errors';
import { ModelScope } from './model-scope';

/** Per id: its hash's PTTL (-2 gone, -1 none) and whether `exp` lists it. */
export interface ExpiryReads {
  ttls: number[];
  entries: boolean[];
}

/**
 * The PTTL of each object's hash and its `exp` entry, read in one MULTI (every key shares the scope's hash
 * tag): expire(), persist() and each save change the two in one script, so the reads see such a change whole
 * or not at all, never the TTL without the entry or the entry without the TTL.
 */
export async function expiryReads(scope: ModelScope, ids: readonly string[]): Promise<ExpiryReads> {
  if (ids.length === 0) return { ttls: [], entries: [] };
  const commands = ids.map((id) => ['PTTL', scope.keys.object(id)]);
  commands.push(['ZMSCORE', scope.keys.expiring, ...ids]);
  const replies = allApplied(await scope.client.transport.transaction(commands, scope.keys.all));
  const scores = replies[ids.length] as unknown[];
  return { ttls: replies.slice(0, ids.length).map(Number), entries: scores.map((score) => score !== null) };
}

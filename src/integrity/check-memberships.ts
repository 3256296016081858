import { Findings } from './findings';
import { ModelScope, relatedScope } from './model-scope';
import { chunks, isWrongType, raw, unlessWrongType } from './raw-commands';

/** The other side of a membership set of this model: the related model and the prefix of its sets. */
function otherSide(scope: ModelScope, rest: string): { other: ModelScope; otherPrefix: string; ownerId: string } | undefined {
  const rel = /^rel:([A-Za-z_$][\w$]*):(.+)$/.exec(rest);
  if (rel) {
    const relation = scope.definition.relations.find((r) => r.kind === 'manyToMany' && r.property === rel[1]);
    if (!relation || relation.kind !== 'manyToMany') return undefined;
    const other = relatedScope(scope, relation.target);
    if (!other) return undefined;
    const otherPrefix = relation.inverse
      ? `${other.keys.base}:rel:${relation.inverse}:`
      : `${other.keys.base}:rev:${scope.definition.name}.${relation.property}:`;
    return { other, otherPrefix, ownerId: rel[2] };
  }
  const rev = /^rev:(\w+)\.([A-Za-z_$][\w$]*):(.+)$/.exec(rest);
  if (!rev) return undefined;
  const other = relatedScope(scope, rev[1]);
  const declared = other?.definition.relations.find((r) => r.kind === 'manyToMany' && r.property === rev[2]);
  if (!other || !declared) return undefined;
  return { other, otherPrefix: `${other.keys.base}:rel:${rev[2]}:`, ownerId: rev[3] };
}

/** Listed in `all` with a hash (a key of another type is no object). */
async function isLive(scope: ModelScope, id: string): Promise<boolean> {
  const client = raw(scope.client);
  const [type, listed] = await Promise.all([client.type(scope.keys.object(id)), client.zScore(scope.keys.all, id)]);
  return type === 'hash' && listed !== null;
}

/**
 * Invariant 6 for one membership set `<base>:rel:<property>:<id>` or `<base>:rev:<Model>.<property>:<id>`:
 * both ends must be live and the other side's set must hold this id.
 */
export async function checkMembershipKey(
  scope: ModelScope,
  findings: Findings,
  key: string,
  rest: string,
  batchSize: number,
): Promise<void> {
  const side = otherSide(scope, rest);
  if (!side) {
    findings.add('unknownKey', { key }, `${key}: a membership set of no declared many-to-many relation`);
    return;
  }
  const client = raw(scope.client);
  const ownerLive = await isLive(scope, side.ownerId);
  try {
    for await (const page of client.sScanIterator(key, { COUNT: batchSize })) {
      for (const batch of chunks(page.map(String), batchSize)) {
        findings.held(batch.length);
        const states = await Promise.all(
          batch.map(
            async (otherId) =>
              [
                await isLive(side.other, otherId),
                await unlessWrongType(client.sIsMember(side.otherPrefix + otherId, side.ownerId), null),
              ] as const,
          ),
        );
        batch.forEach((otherId, i) => {
          const [otherLive, mirrored] = states[i];
          if (ownerLive && otherLive && Number(mirrored) === 1) return;
          const otherSet = side.otherPrefix + otherId;
          if (mirrored === null) {
            // the other side's key is named (wrongType) by the other model's check; its repair deletes it
            findings.add('oneSidedMembership', { id: side.ownerId, key }, `${key} holds ${otherId}, but ${otherSet} is not a set`);
            return;
          }
          const why = !ownerLive
            ? `${side.ownerId} is not live`
            : !otherLive
              ? `${otherId} is not live`
              : `${otherSet} lacks ${side.ownerId}`;
          findings.add('oneSidedMembership', { id: side.ownerId, key }, `${key} holds ${otherId}, but ${why}`, {
            type: 'membership',
            owner: scope,
            ownerId: side.ownerId,
            ownerSet: key,
            other: side.other,
            otherId,
            otherSet,
          });
        });
      }
    }
  } catch (error) {
    if (!isWrongType(error)) throw error;
    // the first scan call fails: no member was checked. The other side's sets hold the memberships.
    findings.add('wrongType', { id: side.ownerId, key }, `${key} holds a ${await client.type(key)}, not a membership set`, {
      type: 'unlink',
      key,
    });
  }
}

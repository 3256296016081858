import { Findings } from './findings';
import { ModelScope, relatedScope } from './model-scope';
import { StoredDefinition } from '../schema/stored-definition';
import { chunks, isWrongType, raw, RawCommands, unlessWrongType } from './raw-commands';

/** The other side of a membership set of this model: the related model, the prefix of its sets, which are ordered. */
interface OtherSide {
  readonly other: ModelScope;
  readonly otherPrefix: string;
  readonly ownerId: string;
  /** Whether this set, and whether the other side's sets, are ordered lists (sorted sets of positions). */
  readonly ordered: boolean;
  readonly otherOrdered: boolean;
}

/** Whether `definition` declares `property` as an ordered many-to-many. */
function isOrdered(definition: StoredDefinition, property: string | null): boolean {
  const relation = definition.relations.find((r) => r.kind === 'manyToMany' && r.property === property);
  return relation?.kind === 'manyToMany' && relation.ordered === true;
}

function otherSide(scope: ModelScope, rest: string): OtherSide | undefined {
  const rel = /^rel:([A-Za-z_$][\w$]*):(.+)$/.exec(rest);
  if (rel) {
    const relation = scope.definition.relations.find((r) => r.kind === 'manyToMany' && r.property === rel[1]);
    if (!relation || relation.kind !== 'manyToMany') return undefined;
    const other = relatedScope(scope, relation.target);
    if (!other) return undefined;
    const otherPrefix = relation.inverse
      ? `${other.keys.base}:rel:${relation.inverse}:`
      : `${other.keys.base}:rev:${scope.definition.name}.${relation.property}:`;
    const ordered = relation.ordered === true;
    return { other, otherPrefix, ownerId: rel[2], ordered, otherOrdered: isOrdered(other.definition, relation.inverse) };
  }
  const rev = /^rev:(\w+)\.([A-Za-z_$][\w$]*):(.+)$/.exec(rest);
  if (!rev) return undefined;
  const other = relatedScope(scope, rev[1]);
  const declared = other?.definition.relations.find((r) => r.kind === 'manyToMany' && r.property === rev[2]);
  if (!other || !declared) return undefined;
  const otherOrdered = isOrdered(other.definition, rev[2]);
  return { other, otherPrefix: `${other.keys.base}:rel:${rev[2]}:`, ownerId: rev[3], ordered: false, otherOrdered };
}

/** The members of a membership key, a page at a time: SSCAN of a set, ZSCAN of an ordered list. */
async function* membersOf(client: RawCommands, key: string, ordered: boolean, batchSize: number): AsyncGenerator<string[]> {
  if (ordered) for await (const page of client.zScanIterator(key, { COUNT: batchSize })) yield page.map((m) => m.value);
  else for await (const page of client.sScanIterator(key, { COUNT: batchSize })) yield page.map(String);
}

/** Whether the other side's key holds `id` (1 or 0), or null when it holds another type than its side's. */
async function mirrors(client: RawCommands, key: string, ordered: boolean, id: string): Promise<number | null> {
  if (ordered)
    return unlessWrongType(
      client.zScore(key, id).then((score) => (score === null ? 0 : 1)),
      null,
    );
  return unlessWrongType(client.sIsMember(key, id).then(Number), null);
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
    for await (const page of membersOf(client, key, side.ordered, batchSize)) {
      for (const batch of chunks(page, batchSize)) {
        findings.held(batch.length);
        const states = await Promise.all(
          batch.map(
            async (otherId) =>
              [
                await isLive(side.other, otherId),
                await mirrors(client, side.otherPrefix + otherId, side.otherOrdered, side.ownerId),
              ] as const,
          ),
        );
        batch.forEach((otherId, i) => {
          const [otherLive, mirrored] = states[i];
          if (ownerLive && otherLive && Number(mirrored) === 1) return;
          const otherSet = side.otherPrefix + otherId;
          if (mirrored === null) {
            // the other side's key is named (wrongType) by the other model's check; its repair deletes it
            findings.add(
              'oneSidedMembership',
              { id: side.ownerId, key },
              `${key} holds ${otherId}, but ${otherSet} is not ${side.otherOrdered ? 'an ordered list' : 'a set'}`,
            );
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
            ownerOrdered: side.ordered,
            otherOrdered: side.otherOrdered,
          });
        });
      }
    }
  } catch (error) {
    if (!isWrongType(error)) throw error;
    // the first scan call fails: no member was checked. The other side's sets hold the memberships.
    const expected = side.ordered ? 'an ordered membership list' : 'a membership set';
    findings.add('wrongType', { id: side.ownerId, key }, `${key} holds a ${await client.type(key)}, not ${expected}`, {
      type: 'unlink',
      key,
    });
  }
}

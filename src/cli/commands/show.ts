import type { StoredDefinition } from '../../schema/stored-definition';
import { entryOf } from '../../integrity/expected-entries';
import { ModelScope, scopeOfId } from '../../integrity/model-scope';
import { indexName, StoredIndex } from '../../schema/stored-definition';
import { CliClient } from '../connect-cli';
import { CliContext } from '../context';
import { decodeHash, DecodedAttribute } from '../decode-attributes';
import { UsageError } from '../errors';
import { print } from '../output/print';
import { renderTable } from '../output/table';
import { isValidId } from '../../keys/id-format';

export interface IndexEntryState {
  readonly index: string;
  readonly key: string;
  /** The member (or unique value) as text; lex members as their value. */
  readonly member: string;
  readonly score?: number;
  /** Whether the entry is stored (with the right score; a unique value naming this id). */
  readonly present: boolean;
}

export interface ShownObject {
  readonly model: string;
  readonly tenant: string | null;
  readonly id: string;
  readonly key: string;
  readonly listed: boolean;
  /** ms since the epoch, when the object has a time to live. */
  readonly expiresAt: number | null;
  readonly attributes: DecodedAttribute[];
  readonly internal: Record<string, string>;
  readonly entries: IndexEntryState[];
  /** Many-to-many membership sets of the object, with their sizes. */
  readonly memberships: Array<{ key: string; size: number }>;
}

const text = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

function memberText(index: StoredIndex, member: string): string {
  if (index.kind !== 'lex') return text(member);
  const at = member.indexOf('\0\0');
  const value = member.slice(0, at < 0 ? undefined : at);
  return value === '\xff' ? '(absent)' : text(value.replaceAll('\0\x01', '\0'));
}

async function isPresent(
  client: CliClient,
  kind: 'S' | 'Z' | 'U',
  key: string,
  member: string,
  id: string,
  score?: number,
): Promise<boolean> {
  const bytes = Buffer.from(member, 'latin1');
  if (kind === 'S') return Boolean(await client.sIsMember(key, bytes));
  if (kind === 'U') return (await client.hGet(key, bytes)) === id;
  const stored = await client.zScore(key, bytes);
  return stored !== null && (score === undefined || stored === score);
}

async function entriesOf(client: CliClient, scope: ModelScope, hash: Record<string, string>, id: string): Promise<IndexEntryState[]> {
  const values = new Map(Object.entries(hash));
  const states: IndexEntryState[] = [];
  for (const index of scope.definition.indexes) {
    const entry = entryOf(scope, index, values, id);
    if (!entry) continue;
    const present = await isPresent(client, entry.kind, entry.key, entry.member, id, entry.score);
    states.push({
      index: indexName(index),
      key: entry.key,
      member: memberText(index, entry.member),
      ...(entry.score !== undefined && index.kind === 'score' ? { score: entry.score } : {}),
      present,
    });
  }
  return states;
}

/**
 * The object's membership sets: its own many-to-many sets, and the sets it holds as the target of another
 * model's one-sided many-to-many (`<base>:rev:<Model>.<property>:<id>`, under the object's own base).
 */
async function membershipsOf(
  client: CliClient,
  scope: ModelScope,
  id: string,
  definitions: Iterable<StoredDefinition>,
): Promise<Array<{ key: string; size: number }>> {
  const keys: string[] = [];
  for (const relation of scope.definition.relations) {
    if (relation.kind === 'manyToMany') keys.push(`${scope.keys.base}:rel:${relation.property}:${id}`);
  }
  for (const other of definitions) {
    for (const relation of other.relations) {
      if (relation.kind === 'manyToMany' && relation.inverse === null && relation.target === scope.definition.name) {
        keys.push(`${scope.keys.base}:rev:${other.name}.${relation.property}:${id}`);
      }
    }
  }
  const sizes = await Promise.all(keys.map((key) => client.sCard(key)));
  return keys.map((key, i) => ({ key, size: Number(sizes[i]) })).filter((m) => m.size > 0);
}

/** `show <Model> <id>`: the stored object, decoded by its stored types, and the index entries it sits in. */
export async function showCommand(context: CliContext, name: string, id: string): Promise<number> {
  const definition = context.definition(name);
  if (!isValidId(id)) throw new UsageError(`invalid id ${JSON.stringify(id)}: 1 to 128 characters of A-Z a-z 0-9 _ -`);
  const scope = scopeOfId(context.scope(definition, context.options.tenant), id); // a sharded model: the id's shard
  const client = context.client;
  const key = scope.keys.object(id);
  const [hash, listed, expiresAt] = await Promise.all([
    client.hGetAll(key),
    client.zScore(scope.keys.all, id),
    client.zScore(scope.keys.expiring, id),
  ]);
  if (Object.keys(hash).length === 0) {
    const where = context.options.tenant === undefined ? '' : ` in tenant ${context.options.tenant}`;
    return context.fail(`${name} ${id}${where}: no such object${listed !== null ? ' (its id is in all: expired, or see check)' : ''}`);
  }
  const { attributes, internal } = decodeHash(definition, hash);
  const shown: ShownObject = {
    model: definition.name,
    tenant: scope.tenant ?? null,
    id,
    key,
    listed: listed !== null,
    expiresAt,
    attributes,
    internal,
    entries: await entriesOf(client, scope, hash, id),
    memberships: await membershipsOf(client, scope, id, context.definitions.values()),
  };
  print(context.json, shown, () => {
    const lines = [`${shown.model} ${id}${shown.tenant ? ` (tenant ${shown.tenant})` : ''}  ${key}`];
    if (!shown.listed) lines.push('not in all (see check)');
    if (expiresAt !== null) lines.push(`expires at ${new Date(expiresAt).toISOString()}`);
    lines.push(
      '',
      renderTable(
        ['ATTRIBUTE', 'TYPE', 'VALUE'],
        attributes.map((a) => [
          a.property,
          a.type,
          a.error ? `${a.stored} (${a.error})` : typeof a.value === 'string' ? a.value : JSON.stringify(a.value),
        ]),
      ),
    );
    if (shown.entries.length > 0) {
      lines.push(
        '',
        renderTable(
          ['INDEX', 'KEY', 'MEMBER', 'STORED'],
          shown.entries.map((e) => [
            e.index,
            e.key,
            e.score !== undefined ? `${e.member} (score ${e.score})` : e.member,
            e.present ? 'yes' : 'MISSING',
          ]),
        ),
      );
    }
    for (const m of shown.memberships) lines.push('', `${m.key}: ${m.size} member${m.size === 1 ? '' : 's'}`);
    return lines.join('\n');
  });
  return 0;
}

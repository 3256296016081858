import { inspectObject } from '../../admin';
import { InvalidIdError } from '../../index';
import { CliContext } from '../context';
import { UsageError } from '../errors';
import { print } from '../output/print';
import { renderTable } from '../output/table';

/** `show <Model> <id>`: the stored object, decoded by its stored types, and the index entries it sits in. */
export async function showCommand(context: CliContext, name: string, id: string): Promise<number> {
  const definition = context.definition(name);
  const scope = context.scope(definition, context.options.tenant);
  let stored;
  try {
    stored = await inspectObject(scope, id, context.definitions.values());
  } catch (error) {
    if (error instanceof InvalidIdError) throw new UsageError(`invalid id ${JSON.stringify(id)}: 1 to 128 characters of A-Z a-z 0-9 _ -`);
    throw error;
  }
  if (!stored.exists) {
    const where = context.options.tenant === undefined ? '' : ` in tenant ${context.options.tenant}`;
    return context.fail(`${name} ${id}${where}: no such object${stored.listed ? ' (its id is in all: expired, or see check)' : ''}`);
  }
  // `exists` is true here: the output is the object without it
  const { exists: _exists, ...shown } = stored;
  const { key, expiresAt, attributes } = shown;
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

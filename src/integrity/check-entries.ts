import { bytes, entriesOf, entryOf, ExpectedEntry, withFolds } from './expected-entries';
import { Findings } from './findings';
import { ModelScope } from './model-scope';
import { binary, latin1, raw, RawCommands, unlessWrongType } from './raw-commands';
import { membershipsIn, scoresIn, valuesIn } from './batched-reads';
import { partsOfName } from '../model/index-descriptor';

const show = (member: string) => JSON.stringify(Buffer.from(member, 'latin1').toString('utf8')).slice(0, 80);

/**
 * Invariants 3 (missing entries) and 4, from the objects' side: every index and unique entry a batch of live
 * objects' values call for exists, with the right score or owner. `folds` holds the case folds checkLive
 * corrected, for the repair of each object.
 */
export async function checkEntries(
  scope: ModelScope,
  findings: Findings,
  objects: Array<[string, Map<string, string>]>,
  folds: Map<string, Array<[string, string, string]>>,
): Promise<void> {
  const wanted: Array<[string, ExpectedEntry]> = objects.flatMap(([id, values]) =>
    entriesOf(scope, values, id).map((e) => [id, e] as [string, ExpectedEntry]),
  );
  const found = await readEntries(
    binary(scope.client),
    wanted.map(([, entry]) => entry),
  );
  const wrongOwners: Array<[string, ExpectedEntry, string]> = [];
  const valuesOf = new Map(objects);
  wanted.forEach(([id, entry], i) => {
    const fix = { type: 'object', id, folds: folds.get(id) ?? [] } as const;
    const reply = found[i];
    const where = { id, key: entry.key };
    if (entry.kind === 'S') {
      if (reply !== true) findings.add('missingEntry', where, `${entry.key} lacks ${id}`, fix);
    } else if (entry.kind === 'Z') {
      if (Number.isNaN(entry.score)) {
        const value = show(bytes(valuesOf.get(id)?.get(entry.index.attribute) ?? ''));
        findings.add(
          'wrongEntry',
          where,
          `${entry.index.attribute} of ${id} holds ${value}, not a stored number: ${entry.key} cannot hold it`,
          fix,
        );
      } else if (reply === null) findings.add('missingEntry', where, `${entry.key} lacks ${show(entry.member)}`, fix);
      else if (Number(String(reply)) !== entry.score)
        findings.add('wrongEntry', where, `${entry.key}: ${id} scored ${reply}, its value is ${entry.score}`, fix);
    } else if (reply === null) {
      findings.add('missingEntry', where, `${entry.key} lacks ${show(entry.member)} -> ${id}`, fix);
    } else if (latin1(reply as unknown as Buffer) !== bytes(id)) {
      wrongOwners.push([id, entry, latin1(reply as unknown as Buffer)]);
    }
  });
  await checkOwners(scope, findings, wrongOwners, folds);
}

/** What an expected entry's key holds for it (readEntries). */
type EntryReply = boolean | number | string | Buffer | null;

/**
 * What each expected entry's key holds for it: whether the set has the member (S), the member's score (Z) or
 * the object the unique value maps to (U), null when the key lacks it or holds another type (the key scan
 * names such a key). One read per key and kind for all the entries of a batch (batched-reads.ts).
 */
export async function readEntries(client: RawCommands, entries: readonly ExpectedEntry[]): Promise<EntryReply[]> {
  const found = new Array<EntryReply>(entries.length);
  const byKey = new Map<string, { kind: ExpectedEntry['kind']; key: string; at: number[]; members: Buffer[] }>();
  entries.forEach((entry, at) => {
    let group = byKey.get(entry.kind + entry.key);
    if (!group) byKey.set(entry.kind + entry.key, (group = { kind: entry.kind, key: entry.key, at: [], members: [] }));
    group.at.push(at);
    group.members.push(Buffer.from(entry.member, 'latin1'));
  });
  await Promise.all(
    [...byKey.values()].map(async ({ kind, key, at, members }) => {
      const read: Promise<EntryReply[]> =
        kind === 'S' ? membershipsIn(client, key, members) : kind === 'Z' ? scoresIn(client, key, members) : valuesIn(client, key, members);
      const replies = (await unlessWrongType(read, null)) ?? members.map(() => null);
      at.forEach((position, i) => (found[position] = replies[i]));
    }),
  );
  return found;
}

/**
 * A unique value mapped to another object: a duplicate if that one holds it too (judged from its stored value,
 * folded for a case-insensitive index: withFolds), else a wrong owner.
 */
async function checkOwners(
  scope: ModelScope,
  findings: Findings,
  wrong: Array<[string, ExpectedEntry, string]>,
  folds: Map<string, Array<[string, string, string]>>,
): Promise<void> {
  const client = raw(scope.client);
  const held = await Promise.all(
    wrong.map(async ([, entry, owner]) => {
      // the attribute, or a composite unique's parts
      const fields = partsOfName(entry.index.attribute) ?? [entry.index.attribute];
      const [read, listed] = await Promise.all([
        unlessWrongType(client.hmGet(scope.keys.object(owner), fields), [] as Array<string | null>),
        client.zScore(scope.keys.all, owner),
      ]);
      const values = new Map<string, string>();
      fields.forEach((field, f) => read[f] !== null && read[f] !== undefined && values.set(field, read[f]!));
      if (listed === null || values.size === 0) return false;
      return entryOf(scope, entry.index, withFolds(scope, values), owner)?.member === entry.member;
    }),
  );
  wrong.forEach(([id, entry, owner], i) => {
    const value = show(entry.member);
    if (held[i]) {
      findings.add('duplicateUnique', { id, key: entry.key }, `${id} holds ${value}, which ${owner} holds and owns too`);
    } else {
      findings.add(
        'uniqueOwner',
        { id: owner, key: entry.key },
        `${entry.key}: ${value} -> ${owner}, which does not hold it (${id} does)`,
        {
          type: 'object',
          id,
          folds: folds.get(id) ?? [],
        },
        `uniqueOwner ${entry.key} ${entry.member}`,
      );
    }
  });
}

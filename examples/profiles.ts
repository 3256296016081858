// Profiles with arbitrary extra attributes, each kept as its own typed field, shown one by one.
// Run alone: npx ts-node examples/profiles.ts
import { Attr, BaseEntity, DynamicAttrs, Model, Unique } from '../src';
import { Print, runAlone } from './support/run-example';

type Extra = Record<string, string | number | boolean>;

@Model()
export class Profile extends BaseEntity {
  @Attr() @Unique() handle!: string;
  @Attr() displayName!: string;
  // Keys chosen by the user: each is the hash field `~<key>` with a type tag, so 38 comes back a number
  // and true a boolean, and a save writes only the keys that changed.
  @DynamicAttrs() extra: Extra = {};
}

/** The profile as rows "key: value (type)", declared attributes first, then the extra ones by key. */
export function describe(profile: Profile): string[] {
  const rows = [`handle: ${profile.handle}`, `displayName: ${profile.displayName}`];
  for (const key of Object.keys(profile.extra).sort()) {
    const value = profile.extra[key];
    rows.push(`${key}: ${String(value)} (${typeof value})`);
  }
  return rows;
}

export interface ProfilesResult {
  /** ann's rows when created, and after an edit read back from Redis. */
  created: string[];
  edited: string[];
  /** ann's extra attributes as read back: types kept. */
  extra: Extra;
  /** bob's rows: other keys entirely. */
  bob: string[];
  /** The error a value that is not a string, number or boolean gets. */
  refused: string;
}

export async function run(print: Print): Promise<ProfilesResult> {
  const ann = await Profile.create({
    handle: 'ann',
    displayName: 'Ann Lee',
    extra: { city: 'Oslo', shoeSize: 38, newsletter: true, 'favourite colour': 'teal' },
  });
  const bob = await Profile.create({ handle: 'bob', displayName: 'Bob', extra: { chessRating: 1820, pronouns: 'he/him' } });
  const created = describe(await Profile.findOrFail(ann.id));
  print('ann:');
  for (const row of created) print(`  ${row}`);

  // An edit: one key changed, one added, one removed; the save writes those three fields only.
  ann.extra.city = 'Bergen';
  ann.extra.languages = 2;
  delete ann.extra.newsletter;
  await ann.save();
  const reread = await Profile.findOrFail(ann.id);
  const edited = describe(reread);
  print('ann, after moving to Bergen:');
  for (const row of edited) print(`  ${row}`);
  const bobRows = describe(await Profile.findOrFail(bob.id));
  print('bob:');
  for (const row of bobRows) print(`  ${row}`);

  let refused = '';
  try {
    await Profile.create({ handle: 'cleo', displayName: 'Cleo', extra: { address: { city: 'Rome' } } as unknown as Extra });
  } catch (error) {
    refused = `${(error as Error).name}: ${(error as Error).message}`;
  }
  print(`a nested object as an extra value is refused: ${refused}`);

  return { created, edited, extra: { ...reread.extra }, bob: bobRows, refused };
}

if (require.main === module) runAlone('Profiles with extra attributes', 'example-profiles', run);

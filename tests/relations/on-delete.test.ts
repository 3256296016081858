import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, RelationError } from '../../src';
import { expectIndexesConsistent } from '../support/index-consistency';
import { expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Belongs-to pointers and what removing a parent does: 'cascade' (recursive, through three levels and through
 * a self-reference), 'nullify' (the foreign key cleared, the entries of indexes scoped by it moved), and
 * 'restrict' (the default, checked over the whole cascade before anything is written).
 */

// Three levels of cascade, and a restrict rule at the bottom: Org -> Team -> Member -> Badge (restrict).
@Model({ group: 'od' })
class OdOrg extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => OdTeam, { inverse: 'org', onDelete: 'cascade' }) teams!: HasMany<OdTeam>;
}

@Model({ group: 'od' })
class OdTeam extends BaseEntity {
  @BelongsTo(() => OdOrg) org!: BelongsTo<OdOrg>;
  orgId?: string;
  @Attr() @Index() name!: string;
  @HasMany(() => OdMember, { inverse: 'team', onDelete: 'cascade' }) members!: HasMany<OdMember>;
}

@Model({ group: 'od' })
class OdMember extends BaseEntity {
  @BelongsTo(() => OdTeam) team!: BelongsTo<OdTeam>;
  @BelongsTo(() => OdMentor) mentor!: BelongsTo<OdMentor>;
  mentorId?: string;
  @Attr() name!: string;
  // Indexes scoped by a foreign key: a mentor's members by join date and by (sortable) name.
  @Attr() @Index({ scope: 'mentorId' }) joined!: Date;
  @Attr() @Index({ scope: 'mentorId' }) level!: number;
  @HasMany(() => OdBadge, { inverse: 'holder' }) badges!: HasMany<OdBadge>; // onDelete 'restrict' (default)
}

@Model({ group: 'od' })
class OdBadge extends BaseEntity {
  @BelongsTo(() => OdMember) holder!: BelongsTo<OdMember>;
  @Attr() label!: string;
}

@Model({ group: 'od' })
class OdMentor extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => OdMember, { inverse: 'mentor', onDelete: 'nullify' }) mentees!: HasMany<OdMember>;
}

// Self-references: replies cascade; notes point at notes with no @HasMany declared (so: restrict).
@Model()
class OdReply extends BaseEntity {
  @BelongsTo(() => OdReply) parent!: BelongsTo<OdReply>;
  parentId?: string;
  @Attr() text!: string;
  @HasMany(() => OdReply, { inverse: 'parent', onDelete: 'cascade' }) replies!: HasMany<OdReply>;
}

@Model()
class OdNote extends BaseEntity {
  @BelongsTo(() => OdNote) previous!: BelongsTo<OdNote>;
  @Attr() text!: string;
}

// Uuid ids on both ends of a belongs-to, with nullify.
@Model({ idStrategy: 'uuid', group: 'uu' })
class OdFolder extends BaseEntity {
  @Attr() name!: string;
  @HasMany(() => OdFile, { inverse: 'folder', onDelete: 'nullify' }) files!: HasMany<OdFile>;
}

@Model({ idStrategy: 'uuid', group: 'uu' })
class OdFile extends BaseEntity {
  @BelongsTo(() => OdFolder) folder!: BelongsTo<OdFolder>;
  folderId?: string;
  @Attr() @Index() name!: string;
}

const MODELS = [OdOrg, OdTeam, OdMember, OdBadge, OdMentor, OdReply, OdNote, OdFolder, OdFile];
const redis = useTestRedis();

async function expectAllConsistent(): Promise<void> {
  for (const model of MODELS) await expectIndexesConsistent(model, redis.raw, redis.prefix);
  await expectRelationsConsistent(MODELS, redis.raw, redis.prefix);
}

/** An org with `teams` teams of `members` members each. */
async function orgTree(name: string, teams: number, members: number) {
  const org = await OdOrg.create({ name });
  const teamList: OdTeam[] = [];
  const memberList: OdMember[] = [];
  for (let t = 0; t < teams; t++) {
    const team = await org.teams.create({ name: `${name}-t${t}` });
    teamList.push(team);
    for (let m = 0; m < members; m++) {
      memberList.push(await team.members.create({ name: `${name}-t${t}-m${m}`, joined: new Date(1000 + m), level: m }));
    }
  }
  return { org, teams: teamList, members: memberList };
}

afterEach(expectAllConsistent);

describe('belongs-to pointers', () => {
  it('set by entity, by id or to null; id, value and load follow the pointer', async () => {
    const acme = await OdOrg.create({ name: 'acme' });
    const zeta = await OdOrg.create({ name: 'zeta' });
    const team = OdTeam.build({ name: 'pointers' });
    expect(team.org.id).toBeUndefined();
    expect(await team.org.load()).toBeNull();
    team.org.set(acme);
    expect(team.org.id).toBe(acme.id);
    expect(team.orgId).toBe(acme.id); // the foreign key attribute is the storage
    expect(team.org.value).toBe(acme); // known from set(entity), no read needed
    await team.save();

    team.org.set(Number(zeta.id)); // ids as numbers are accepted and normalized
    expect(team.org.id).toBe(zeta.id);
    expect(team.org.value).toBeUndefined(); // not loaded yet
    await team.save();
    const loaded = await OdTeam.findOrFail(team.id!);
    expect((await loaded.org.load())?.name).toBe('zeta');
    expect(loaded.org.value?.name).toBe('zeta');
    expect(await acme.teams.count()).toBe(0);
    expect(await zeta.teams.findIds()).toEqual([team.id]);

    loaded.org.set(null);
    await loaded.save();
    expect((await OdTeam.findOrFail(team.id!)).org.id).toBeUndefined();
    expect(await zeta.teams.count()).toBe(0);
    expect(JSON.parse(JSON.stringify({ org: loaded.org }))).toEqual({}); // toJSON of an empty pointer: undefined
    await team.remove();
    await acme.remove();
    await zeta.remove();
  });

  it('refuses a pointer to a missing or unsaved parent, writing nothing', async () => {
    const org = await OdOrg.create({ name: 'solo' });
    const team = await org.teams.create({ name: 'stays' });
    const before = await snapshotKeys(redis.raw, redis.prefix);
    team.org.set('4242');
    await expect(team.save()).rejects.toThrow(RelationError);
    await expect(OdTeam.create({ name: 'orphan', orgId: '4243' })).rejects.toThrow(RelationError);
    expect(() => team.org.set(OdOrg.build({ name: 'unsaved' }))).toThrow(RelationError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
    expect((await OdTeam.findOrFail(team.id!)).org.id).toBe(org.id);
    await team.remove();
    await org.remove();
  });
});

describe("onDelete 'cascade'", () => {
  it('removes three levels of objects with every key and index entry of theirs', async () => {
    const keep = await orgTree('keep', 1, 2);
    const keysOfKeep = await keysUnder(redis.raw, redis.prefix);
    const gone = await orgTree('gone', 3, 3);
    expect(await OdMember.count()).toBe(11);
    const [orgId, teamIds, memberIds] = [gone.org.id, gone.teams.map((t) => t.id!), gone.members.map((m) => m.id!)];
    await gone.org.remove();
    expect(gone.org.isRemoved()).toBe(true); // the instance removed, its id kept
    expect(gone.org.id).toBe(orgId);
    expect(await OdOrg.exists(orgId)).toBe(false);
    expect(await OdTeam.findMany(teamIds)).toEqual([null, null, null]);
    expect((await OdMember.findMany(memberIds)).every((m) => m === null)).toBe(true);
    expect(await OdMember.count()).toBe(2);
    expect(await keep.org.teams.count()).toBe(1);
    // Sequences stay; no other key of the removed objects is left.
    const left = (await keysUnder(redis.raw, redis.prefix)).filter((key) => !key.endsWith(':seq'));
    expect(left).toEqual(keysOfKeep.filter((key) => !key.endsWith(':seq')));
    await keep.org.remove();
    expect(await OdMember.count()).toBe(0);
  });

  it('follows a self-reference through every generation of replies', async () => {
    const root = await OdReply.create({ text: 'root' });
    const other = await OdReply.create({ text: 'other thread' });
    let parent = root;
    const chain = [root];
    for (let depth = 1; depth <= 4; depth++) {
      const reply = await parent.replies.create({ text: `depth ${depth}` });
      await parent.replies.create({ text: `sibling at depth ${depth}` });
      chain.push(reply);
      parent = reply;
    }
    expect(await OdReply.count()).toBe(10);
    expect(await chain[2].replies.count()).toBe(2);
    await chain[1].remove(); // removes depth 1 and everything under it, not the root's other reply
    expect(await OdReply.count()).toBe(3);
    expect((await root.replies.findBy()).map((r) => r.text)).toEqual(['sibling at depth 1']);
    await root.remove();
    expect(await OdReply.findIds()).toEqual([other.id]);
    await other.remove();
  });

  it('removes an object that is its own parent', async () => {
    const loop = await OdReply.create({ text: 'loop' });
    loop.parent.set(loop);
    await loop.save();
    expect(await loop.replies.findIds()).toEqual([loop.id]);
    await loop.remove();
    expect(await OdReply.count()).toBe(0);
  });
});

describe("onDelete 'restrict'", () => {
  it('is the default when the parent declares no @HasMany (self-reference too)', async () => {
    const first = await OdNote.create({ text: 'first' });
    const second = OdNote.build({ text: 'second' });
    second.previous.set(first);
    await second.save();
    await expect(first.remove()).rejects.toThrow(/OdNote objects still belong to it through previousId/);
    await second.remove();
    await first.remove();
  });

  it('deep inside a cascade refuses the whole remove, writing nothing', async () => {
    const tree = await orgTree('deep', 2, 2);
    const mentor = await OdMentor.create({ name: 'mia' });
    const lastMember = tree.members[3];
    lastMember.mentor.set(mentor);
    await lastMember.save();
    const badge = await lastMember.badges.create({ label: 'gold' });
    const before = await snapshotKeys(redis.raw, redis.prefix);
    await expect(tree.org.remove()).rejects.toThrow(RelationError);
    await expect(tree.org.remove()).rejects.toThrow(/OdBadge objects still belong to it through holderId/);
    await expect(tree.teams[1].remove()).rejects.toThrow(RelationError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
    expect(tree.org.id).toBeDefined(); // the instance is still usable
    await badge.remove();
    await tree.org.remove(); // the cascade also leaves the mentor's nullify side clean
    expect(await OdMember.count()).toBe(0);
    expect(await mentor.mentees.count()).toBe(0);
    await mentor.remove();
  });
});

describe("onDelete 'nullify'", () => {
  it('clears the foreign key and moves the entries of indexes scoped by it', async () => {
    const tree = await orgTree('nul', 1, 3);
    const mentor = await OdMentor.create({ name: 'max' });
    const other = await OdMentor.create({ name: 'ora' });
    for (const member of tree.members) {
      member.mentor.set(member === tree.members[2] ? other : mentor);
      await member.save();
    }
    const scopedKey = `${redis.prefix}:{od}:OdMember:idx:joined@mentorId:${mentor.id}`;
    expect(await redis.raw.zCard(scopedKey)).toBe(2);
    expect((await mentor.mentees.findBy({}, { orderBy: { joined: 'desc' } })).map((m) => m.name)).toEqual(['nul-t0-m1', 'nul-t0-m0']);

    await mentor.remove();
    expect(await redis.raw.exists(scopedKey)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}:{od}:OdMember:idx:level@mentorId:${mentor.id}`)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}:{od}:OdMember:idx:mentorId:${mentor.id}`)).toBe(0);
    const members = await OdMember.findMany(tree.members.map((m) => m.id!));
    expect(members.map((m) => m?.mentor.id)).toEqual([undefined, undefined, other.id]);
    expect(members.map((m) => m?.joined.getTime())).toEqual([1000, 1001, 1002]); // nothing else changed
    expect(await other.mentees.count()).toBe(1);
    await other.remove();
    await tree.org.remove();
  });

  it('works with uuid ids on both sides', async () => {
    const folder = await OdFolder.create({ name: 'docs' });
    const a = await folder.files.create({ name: 'a.txt' });
    const b = await folder.files.create({ name: 'b.txt' });
    expect(folder.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await folder.files.findIds()).sort()).toEqual([a.id, b.id].sort());
    const loaded = await OdFile.findOrFail(a.id);
    expect((await loaded.folder.load())?.name).toBe('docs');
    await folder.remove();
    expect((await OdFile.findMany([a.id, b.id])).map((f) => f?.folderId)).toEqual([undefined, undefined]);
    expect(await OdFile.count({ name: 'b.txt' })).toBe(1);
    await a.remove();
    await b.remove();
  });
});

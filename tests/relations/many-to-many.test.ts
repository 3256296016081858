import { Attr, BaseEntity, ManyToMany, Model, RelationError, Unique } from '../../src';
import { checkRelations, expectRelationsConsistent, snapshotKeys } from '../support/relation-consistency';
import { useTestRedis } from '../support/test-redis';

/**
 * Many-to-many memberships: a set on each side, changed together; declared on one side only (the other side's
 * set is `rev:`), or on both sides with `inverse`; sequence and uuid ids; self-relations; removal of either
 * object takes its memberships out of the other side.
 */

// Both sides declared, each naming the other; students have uuid ids.
@Model({ group: 'school', idStrategy: 'uuid' })
class MmStudent extends BaseEntity {
  @Attr() name!: string;
  @ManyToMany(() => MmCourse, { inverse: 'students' }) courses!: ManyToMany<MmCourse>;
}

@Model({ group: 'school' })
class MmCourse extends BaseEntity {
  @Attr() @Unique() code!: string;
  @ManyToMany(() => MmStudent, { inverse: 'courses' }) students!: ManyToMany<MmStudent>;
}

// Declared on one side only.
@Model({ group: 'shop' })
class MmProduct extends BaseEntity {
  @Attr() name!: string;
  @ManyToMany(() => MmLabel) labels!: ManyToMany<MmLabel>;
}

@Model({ group: 'shop' })
class MmLabel extends BaseEntity {
  @Attr() text!: string;
}

// Self-relations: followers/following name each other; friends is one-sided.
@Model({ idStrategy: 'uuid' })
class MmPerson extends BaseEntity {
  @Attr() name!: string;
  @ManyToMany(() => MmPerson, { inverse: 'followers' }) following!: ManyToMany<MmPerson>;
  @ManyToMany(() => MmPerson, { inverse: 'following' }) followers!: ManyToMany<MmPerson>;
  @ManyToMany(() => MmPerson) friends!: ManyToMany<MmPerson>;
}

const MODELS = [MmStudent, MmCourse, MmProduct, MmLabel, MmPerson];
const redis = useTestRedis();

afterEach(async () => {
  await expectRelationsConsistent(MODELS, redis.raw, redis.prefix);
});

describe('inverse declared on both sides', () => {
  it('a membership added on one side is seen from the other; removed from either', async () => {
    const ada = await MmStudent.create({ name: 'ada' });
    const bob = await MmStudent.create({ name: 'bob' });
    const db = await MmCourse.create({ code: 'DB' });
    const os = await MmCourse.create({ code: 'OS' });
    await ada.courses.add(db);
    await ada.courses.add(os.id);
    await ada.courses.add(db); // twice is harmless
    await os.students.add(bob);
    expect(await ada.courses.ids()).toEqual([db.id, os.id]);
    expect((await ada.courses.list()).map((c) => c.code)).toEqual(['DB', 'OS']);
    expect(await db.students.ids()).toEqual([ada.id]);
    expect((await os.students.ids()).sort()).toEqual([ada.id, bob.id].sort());
    expect(await os.students.has(bob.id!)).toBe(true);
    expect(await bob.courses.has(os)).toBe(true);
    expect(await db.students.count()).toBe(1);
    // The keys: each side's set under its own model.
    expect(await redis.raw.sMembers(`${redis.prefix}:{school}:MmCourse:rel:students:${os.id}`)).toHaveLength(2);
    expect(await redis.raw.sMembers(`${redis.prefix}:{school}:MmStudent:rel:courses:${bob.id}`)).toEqual([os.id]);

    await db.students.remove(ada); // from the other side
    expect(await ada.courses.ids()).toEqual([os.id]);
    await ada.courses.remove(db); // not there: harmless
    expect(await db.students.count()).toBe(0);
    await Promise.all([ada, bob, db, os].map((o) => o.remove()));
  });

  it('removing either object removes its memberships from the other side', async () => {
    const students = await Promise.all(['c', 'd', 'e'].map((name) => MmStudent.create({ name })));
    const math = await MmCourse.create({ code: 'MATH' });
    const art = await MmCourse.create({ code: 'ART' });
    for (const student of students) {
      await student.courses.add(math);
      await art.students.add(student);
    }
    await students[0].remove();
    expect(await math.students.count()).toBe(2);
    expect(await art.students.count()).toBe(2);
    const artId = art.id!;
    await art.remove();
    expect(await students[1].courses.ids()).toEqual([math.id]);
    expect(await redis.raw.exists(`${redis.prefix}:{school}:MmCourse:rel:students:${artId}`)).toBe(0);
    await math.remove();
    expect(await students[2].courses.count()).toBe(0);
    await students[1].remove();
    await students[2].remove();
  });

  it('adding with a missing object on either side throws RelationError and writes nothing', async () => {
    const zoe = await MmStudent.create({ name: 'zoe' });
    const bio = await MmCourse.create({ code: 'BIO' });
    const before = await snapshotKeys(redis.raw, redis.prefix);
    await expect(zoe.courses.add('777')).rejects.toThrow(RelationError);
    await expect(bio.students.add('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/MmStudent object does not exist/);
    await expect(zoe.courses.add(MmCourse.build({ code: 'unsaved' }))).rejects.toThrow(RelationError);
    expect(await snapshotKeys(redis.raw, redis.prefix)).toEqual(before);
    await zoe.remove();
    await bio.remove();
  });
});

describe('declared on one side', () => {
  it('keeps the other side in a rev: set and cleans it when either object goes', async () => {
    const product = await MmProduct.create({ name: 'lamp' });
    const other = await MmProduct.create({ name: 'desk' });
    const labels = await Promise.all(['red', 'sale', 'new'].map((text) => MmLabel.create({ text })));
    for (const label of labels) await product.labels.add(label);
    await other.labels.add(labels[1]);
    expect(await product.labels.ids()).toEqual(['1', '2', '3']);
    const rev = `${redis.prefix}:{shop}:MmLabel:rev:MmProduct.labels:${labels[1].id}`;
    expect((await redis.raw.sMembers(rev)).sort()).toEqual([product.id, other.id]);

    await labels[1].remove();
    expect(await product.labels.ids()).toEqual(['1', '3']);
    expect(await other.labels.count()).toBe(0);
    expect(await redis.raw.exists(rev)).toBe(0);
    await product.remove();
    expect(await redis.raw.exists(`${redis.prefix}:{shop}:MmLabel:rev:MmProduct.labels:${labels[0].id}`)).toBe(0);
    await Promise.all([other, labels[0], labels[2]].map((o) => o.remove()));
  });

  it('list() leaves out nothing live and ids() orders sequence ids numerically', async () => {
    const product = await MmProduct.create({ name: 'many' });
    const labels = [];
    for (let i = 0; i < 12; i++) labels.push(await MmLabel.create({ text: `l${i}` }));
    for (const label of [...labels].reverse()) await product.labels.add(label);
    const ids = labels.map((l) => l.id!);
    expect(await product.labels.ids()).toEqual(ids);
    expect((await product.labels.list()).map((l) => l.text)).toEqual(labels.map((l) => l.text));
    await product.remove();
    await Promise.all(labels.map((l) => l.remove()));
  });
});

describe('self-relations with uuid ids', () => {
  it('followers and following are two sides of one membership; friends is one-sided', async () => {
    const [amy, ben, cy] = await Promise.all(['amy', 'ben', 'cy'].map((name) => MmPerson.create({ name })));
    await amy.following.add(ben);
    await cy.following.add(ben);
    await ben.followers.add(amy); // the same membership
    await amy.friends.add(ben);
    await amy.friends.add(amy); // with oneself
    expect((await ben.followers.ids()).sort()).toEqual([amy.id, cy.id].sort());
    expect(await ben.following.count()).toBe(0);
    expect(await ben.friends.count()).toBe(0); // one-sided: ben's own friends set is separate
    expect(await redis.raw.sMembers(`${redis.prefix}:{MmPerson}:rev:MmPerson.friends:${ben.id}`)).toEqual([amy.id]);

    const amyId = amy.id!;
    await amy.remove();
    expect(await ben.followers.ids()).toEqual([cy.id]);
    expect(await redis.raw.exists(`${redis.prefix}:{MmPerson}:rev:MmPerson.friends:${ben.id}`)).toBe(0);
    expect(await redis.raw.exists(`${redis.prefix}:{MmPerson}:rev:MmPerson.friends:${amyId}`)).toBe(0);
    await ben.remove();
    expect(await cy.following.count()).toBe(0);
    await cy.remove();
  });
});

describe('the relation checker', () => {
  it('reports a one-sided membership and a member that is not live', async () => {
    const course = await MmCourse.create({ code: 'CHK' });
    const student = await MmStudent.create({ name: 'checked' });
    await student.courses.add(course);
    const other = `${redis.prefix}:{school}:MmCourse:rel:students:${course.id}`;
    await redis.raw.sRem(other, student.id!);
    await redis.raw.sAdd(`${redis.prefix}:{shop}:MmProduct:rel:labels:999`, '998');
    const report = await checkRelations(MODELS, redis.raw, redis.prefix);
    const missingSide = `${redis.prefix}:{school}:MmStudent:rel:courses:${student.id} holds ${course.id}, but ${other} lacks ${student.id}`;
    expect(report.violations).toEqual([
      `MmCourse.students: ${missingSide}`, // both sides declare the relation: seen from each declaration
      `MmProduct.labels: ${redis.prefix}:{shop}:MmProduct:rel:labels:999 belongs to a dead owner object 999`,
      `MmProduct.labels: ${redis.prefix}:{shop}:MmProduct:rel:labels:999 holds 998, but ${redis.prefix}:{shop}:MmLabel:rev:MmProduct.labels:998 lacks 999`,
      `MmProduct.labels: ${redis.prefix}:{shop}:MmProduct:rel:labels:999 holds 998, which is not live`,
      `MmStudent.courses: ${missingSide}`,
    ]);
    await redis.raw.del(`${redis.prefix}:{shop}:MmProduct:rel:labels:999`);
    await student.courses.remove(course);
    await student.remove();
    await course.remove();
  });
});

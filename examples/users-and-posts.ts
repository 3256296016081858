// Users and their posts: a has-many relation, users found by name and listed in name order.
// Run alone: npx ts-node examples/users-and-posts.ts
import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, SortableString, Unique } from '../src';
import { Print, runAlone } from './support/run-example';

@Model({ group: 'blog' })
export class User extends BaseEntity {
  // A sortable string index: equality, prefixes and name order, all from one sorted set.
  @Attr() @Index({ sortable: true }) name!: SortableString;
  @Attr() @Unique({ caseInsensitive: true }) email!: string;
  @HasMany(() => Post, { inverse: 'author', onDelete: 'cascade' }) posts!: HasMany<Post>;
}

// Model names are one namespace per process: `name` keeps this Post apart from the demo's Post.
@Model({ group: 'blog', name: 'BlogPost' })
export class Post extends BaseEntity {
  @BelongsTo(() => User) author!: BelongsTo<User>;
  authorId?: string;
  @Attr() title!: string;
  // Two indexes: every post in date order, and each user's posts in date order from the user's own key.
  @Attr() @Index() @Index({ scope: 'authorId' }) publishedAt!: Date;
}

export interface UsersResult {
  /** Every user's name, in name order. */
  sorted: string[];
  /** Found by exact name, and by prefix (in name order). */
  byName: { id: string | null; posts: number };
  byPrefix: string[];
  /** The newest two posts of one user. */
  newest: string[];
  /** A page of posts with their authors, loaded with include. */
  withAuthors: string[];
  /** Posts left after removing a user (their posts are removed with them). */
  afterRemove: { users: number; posts: number };
}

export async function run(print: Print): Promise<UsersResult> {
  const day = (d: number) => new Date(Date.UTC(2025, 2, d));
  const people: Array<[string, string, number]> = [
    ['Mia', 'mia@example.com', 2],
    ['Cleo', 'cleo@example.com', 3],
    ['Alex', 'alex@example.com', 1],
    ['Anna', 'anna@example.com', 0],
    ['Bruno', 'bruno@example.com', 2],
  ];
  let n = 0;
  for (const [name, email, postCount] of people) {
    const user = await User.create({ name, email });
    for (let i = 1; i <= postCount; i++) await user.posts.create({ title: `${name}'s post ${i}`, publishedAt: day(++n) });
  }

  const sorted = (await User.findBy({}, { orderBy: { name: 'asc' } })).map((u) => u.name);
  print(`users by name: ${sorted.join(', ')}`);

  const cleo = await User.findOneBy({ name: 'Cleo' });
  const byName = { id: cleo?.id ?? null, posts: cleo ? await cleo.posts.count() : 0 };
  print(`findOneBy({ name: 'Cleo' }) -> user ${byName.id} with ${byName.posts} posts`);
  const byPrefix = (await User.findBy({ name: { startsWith: 'A' } }, { orderBy: { name: 'asc' } })).map((u) => u.name);
  print(`names starting with A: ${byPrefix.join(', ')}`);

  const newest = (await cleo!.posts.findBy({}, { orderBy: { publishedAt: 'desc' }, limit: 2 })).map((p) => p.title);
  print(`Cleo's newest two: ${newest.join(' | ')}`);

  const page = await Post.findBy({}, { orderBy: { publishedAt: 'desc' }, limit: 4, include: ['author'] });
  const withAuthors = page.map((p) => `${p.title} by ${p.author.value?.name}`);
  print(`latest posts: ${withAuthors.join(' | ')}`);

  const mia = await User.findOneBy({ name: 'Mia' });
  await mia!.remove(); // cascade: her posts go in the same script
  const afterRemove = { users: await User.count(), posts: await Post.count() };
  print(`after removing Mia: ${afterRemove.users} users, ${afterRemove.posts} posts`);

  return { sorted, byName, byPrefix, newest, withAuthors, afterRemove };
}

if (require.main === module) runAlone('Users and their posts', 'example-blog', run);

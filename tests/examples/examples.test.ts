import { spawnSync } from 'child_process';
import { join } from 'path';
import { seeded } from '../../tools/seeded-random';
import { keysUnder, uniquePrefix, useTestRedis } from '../support/test-redis';
import * as expiringLogs from '../../examples/expiring-logs';
import * as feedReader from '../../examples/feed-reader';
import * as leaderboard from '../../examples/leaderboard';
import * as profiles from '../../examples/profiles';
import * as usersAndPosts from '../../examples/users-and-posts';

const redis = useTestRedis();

/** A print function that keeps the lines, so a test can also check what the example shows. */
function collector(): { lines: string[]; print: (line: string) => void } {
  const lines: string[] = [];
  return { lines, print: (line) => lines.push(line) };
}

describe('examples/expiring-logs.ts', () => {
  it('pages a user’s logs newest first, counts per user, and expired logs disappear with their keys', async () => {
    const { lines, print } = collector();
    const result = await expiringLogs.run(print);
    const ann = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `ann #${from - i}`);

    expect(result.pages).toEqual([ann(25, 16), ann(15, 6), ann(5, 1)]);
    expect(result.counts).toEqual({ ann: 25, bob: 5 });
    const thirtyDays = 30 * 24 * 3600;
    expect(result.ttlSeconds).toBeLessThanOrEqual(thirtyDays);
    expect(result.ttlSeconds).toBeGreaterThan(thirtyDays - 120);
    expect(result.errors).toEqual(['ann #20', 'ann #10']);
    expect(result.afterExpiry).toEqual({ count: 20, lastPage: ann(15, 6), found: false, swept: 0 });
    expect(lines).toContain('logs per user: ann 25, bob 5');

    // The five expired logs (ids 1 to 5) are gone whole: hash, memo and their entries in ann's index.
    const base = `${redis.prefix}:{AppLog}`;
    for (const id of ['1', '5']) {
      expect(await redis.raw.exists([`${base}:obj:${id}`, `${base}:memo:${id}`])).toBe(0);
    }
    expect(await redis.raw.zCard(`${base}:idx:createdAt@userId:ann`)).toBe(20);
    expect(await redis.raw.zScore(`${base}:idx:createdAt@userId:ann`, '1')).toBeNull();
    expect(await redis.raw.exists(`${base}:obj:6`)).toBe(1);
    // Every log still stored expires within 30 days.
    const pttl = await redis.raw.pTTL(`${base}:obj:30`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(thirtyDays * 1000);
  });
});

describe('examples/leaderboard.ts', () => {
  // The same seeded scores as the example, ranked here independently: kept = the top 100 by score, ties
  // by the later player (larger id) first, as the cap orders them.
  const random = seeded(42);
  const players = Array.from({ length: 150 }, (_, i) => ({
    n: i + 1,
    player: `player-${String(i + 1).padStart(3, '0')}`,
    score: Math.floor(random() * 1000),
  }));
  const ordered = [...players].sort((a, b) => b.score - a.score || b.n - a.n);
  const kept = ordered.slice(0, 100);
  const rank = (score: number) => 1 + kept.filter((p) => p.score > score).length;
  const row = (p: { player: string; score: number }) => ({ rank: rank(p.score), player: p.player, score: p.score });

  it('keeps the top 100, ranks them, moves a better score up and evicts a low newcomer at once', async () => {
    const { lines, print } = collector();
    const result = await leaderboard.run(print);

    expect(result.count).toBe(100);
    expect(result.top10).toEqual(kept.slice(0, 10).map(row));
    expect(result.bottom).toEqual(kept.slice(94, 100).map(row));
    expect(result.lowestKept).toBe(kept[99].score);
    expect(result.evicted).toBe(50);
    expect(result.climber).toEqual({ player: kept[49].player, before: rank(kept[49].score), after: 1, score: kept[0].score + 1 });
    expect(result.late).toEqual({ rank: null, found: false });
    expect(lines[0]).toBe('150 players played; the board keeps 100');

    // In Redis: exactly 100 objects and 100 index entries, the climber on top.
    const base = `${redis.prefix}:{QuizScore}`;
    expect(await redis.raw.zCard(`${base}:all`)).toBe(100);
    expect(await redis.raw.zCard(`${base}:idx:score`)).toBe(100);
    expect(await redis.raw.hLen(`${base}:uniq:player`)).toBe(100);
    expect(await leaderboard.rankOf(kept[49].player)).toBe(1);
    expect(await leaderboard.rankOf(ordered[100].player)).toBeNull();
  });
});

describe('examples/feed-reader.ts', () => {
  it('orders channels per reader, pages items by date cursor, and mark-read updates the unread timeline and counts', async () => {
    const { print } = collector();
    const result = await feedReader.run(print);
    const notes = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `Redis release notes ${from - i}`);

    expect(result.channels).toEqual({ ann: ['Cooking', 'Redis news', 'Node weekly'], bob: ['Redis news', 'Chess'] });
    expect(result.pages).toEqual([notes(10, 7), notes(6, 3), notes(2, 1)]);
    expect(result.unreadBefore).toEqual([
      { channel: 'Cooking', unread: 1 },
      { channel: 'Redis news', unread: 10 },
      { channel: 'Node weekly', unread: 3 },
    ]);
    expect(result.unreadAfter).toEqual([
      { channel: 'Cooking', unread: 0 },
      { channel: 'Redis news', unread: 8 },
      { channel: 'Node weekly', unread: 3 },
    ]);
    expect(result.unreadTimeline).toEqual(notes(8, 1));
    expect(result.bobUnread).toEqual([
      { channel: 'Redis news', unread: 2 },
      { channel: 'Chess', unread: 0 },
    ]);

    // Read items stay in their channel's timeline; only the unread index lost them.
    const { Reader, FeedItem } = feedReader;
    const ann = (await Reader.findOneBy({ name: 'ann' }))!;
    const redisNews = (await feedReader.channelsOf(ann))[1];
    expect(await redisNews.items.count()).toBe(10);
    const newest = (await feedReader.itemsPage(redisNews, 1))[0];
    expect(newest.unreadIn).toBeUndefined();
    const key = `${redis.prefix}:{feeds}:FeedItem:idx:publishedAt@unreadIn:${redisNews.id}`;
    expect(await redis.raw.zCard(key)).toBe(8);
    expect(await redis.raw.zScore(key, newest.id)).toBeNull();

    // Removing a reader takes their channels and items with it; the other reader keeps everything.
    const before = await FeedItem.count();
    await ann.remove();
    expect(await FeedItem.count()).toBe(before - 14);
    expect(await FeedItem.count({ unreadIn: redisNews.id })).toBe(0);
    const bob = (await Reader.findOneBy({ name: 'bob' }))!;
    expect(await feedReader.unreadCounts(bob)).toEqual(result.bobUnread);
  });

  it('moves a channel to any place with one write, the others keeping their positions', async () => {
    const { Reader } = feedReader;
    const cleo = await Reader.create({ name: 'cleo' });
    for (const title of ['a', 'b', 'c', 'd']) await feedReader.subscribe(cleo, title);
    const titles = async () => (await feedReader.channelsOf(cleo)).map((c) => c.title);
    const byTitle = async (title: string) => (await feedReader.channelsOf(cleo)).find((c) => c.title === title)!;

    await feedReader.moveChannel(cleo, await byTitle('d'), 1);
    expect(await titles()).toEqual(['a', 'd', 'b', 'c']);
    await feedReader.moveChannel(cleo, await byTitle('a'), 3);
    expect(await titles()).toEqual(['d', 'b', 'c', 'a']);
    await feedReader.moveChannel(cleo, await byTitle('c'), 0);
    expect(await titles()).toEqual(['c', 'd', 'b', 'a']);
    expect((await byTitle('b')).position).toBe(2);
  });
});

describe('examples/profiles.ts', () => {
  it('shows each extra attribute with its type, and an edit writes and removes single fields', async () => {
    const { lines, print } = collector();
    const result = await profiles.run(print);

    expect(result.created).toEqual([
      'handle: ann',
      'displayName: Ann Lee',
      'city: Oslo (string)',
      'favourite colour: teal (string)',
      'newsletter: true (boolean)',
      'shoeSize: 38 (number)',
    ]);
    expect(result.edited).toEqual([
      'handle: ann',
      'displayName: Ann Lee',
      'city: Bergen (string)',
      'favourite colour: teal (string)',
      'languages: 2 (number)',
      'shoeSize: 38 (number)',
    ]);
    expect(result.extra).toEqual({ city: 'Bergen', 'favourite colour': 'teal', languages: 2, shoeSize: 38 });
    expect(result.bob).toEqual(['handle: bob', 'displayName: Bob', 'chessRating: 1820 (number)', 'pronouns: he/him (string)']);
    expect(result.refused).toMatch(/^ValidationError: .*extra\["address"\]/);
    expect(lines).toContain('  languages: 2 (number)');

    // One hash field per extra attribute; the removed one is gone, and the refused profile wrote nothing.
    const hash = await redis.raw.hGetAll(`${redis.prefix}:{Profile}:obj:1`);
    expect(
      Object.keys(hash)
        .filter((field) => field.startsWith('~'))
        .sort(),
    ).toEqual(['~city', '~favourite colour', '~languages', '~shoeSize']);
    expect(await profiles.Profile.count()).toBe(2);
  });
});

describe('examples/users-and-posts.ts', () => {
  it('finds users by name and prefix, lists them by name, pages posts with authors, cascades on remove', async () => {
    const { print } = collector();
    const result = await usersAndPosts.run(print);

    expect(result.sorted).toEqual(['Alex', 'Anna', 'Bruno', 'Cleo', 'Mia']);
    expect(result.byName).toEqual({ id: '2', posts: 3 });
    expect(result.byPrefix).toEqual(['Alex', 'Anna']);
    expect(result.newest).toEqual(["Cleo's post 3", "Cleo's post 2"]);
    expect(result.withAuthors).toEqual([
      "Bruno's post 2 by Bruno",
      "Bruno's post 1 by Bruno",
      "Alex's post 1 by Alex",
      "Cleo's post 3 by Cleo",
    ]);
    expect(result.afterRemove).toEqual({ users: 4, posts: 6 });

    const { User, Post } = usersAndPosts;
    expect(await User.findOneBy({ name: 'Mia' })).toBeNull();
    expect(await Post.count({ authorId: '1' })).toBe(0);
    expect((await Post.findBy({}, { orderBy: { publishedAt: 'asc' } })).map((p) => p.title)).not.toContain("Mia's post 1");
  });
});

describe('npm run demo (examples/all.ts)', () => {
  it('runs the tour and every example on one Redis, each under its own prefix, and leaves no key behind', async () => {
    const base = uniquePrefix('demo');
    const result = spawnSync(
      process.execPath,
      [require.resolve('ts-node/dist/bin'), '--swc', '--project', 'tsconfig.json', 'examples/all.ts'],
      {
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, DEMO_PREFIX: base },
        encoding: 'utf8',
        timeout: 290_000,
      },
    );
    expect(result.stderr).not.toMatch(/failed|Error/);
    expect(result.status).toBe(0);
    for (const suffix of ['logs', 'leaderboard', 'feeds', 'profiles', 'blog']) {
      expect(result.stdout).toMatch(
        new RegExp(
          `\\(prefix "${base}-${suffix}"\\)[\\s\\S]*\\(cleanup: deleted [1-9]\\d* keys under "${base}-${suffix}:" and "${base}-${suffix}#models"\\)`,
        ),
      );
    }
    expect(result.stdout).toContain('users by name: Alex, Anna, Bruno, Cleo, Mia');
    for (const prefix of [base, ...['logs', 'leaderboard', 'feeds', 'profiles', 'blog'].map((s) => `${base}-${s}`)]) {
      expect(await keysUnder(redis.raw, prefix)).toEqual([]);
      expect(await redis.raw.exists(`${prefix}#models`)).toBe(0);
    }
  }, 300_000);
});

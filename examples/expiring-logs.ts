// Application logs that expire after 30 days, listed per user newest first, one page at a time.
// Run alone: npx ts-node examples/expiring-logs.ts
import { Attr, BaseEntity, Index, Model } from '../src';
import { Print, runAlone } from './support/run-example';

const THIRTY_DAYS = 30 * 24 * 60 * 60; // seconds

// Every log line lives 30 days from its creation: its hash, its index entries and its memo go together.
@Model({ ttl: THIRTY_DAYS })
export class AppLog extends BaseEntity {
  @Attr() userId!: string;
  @Attr() @Index() level!: 'info' | 'warn' | 'error';
  @Attr() message!: string;
  // One sorted set per user: a user's newest page is one window of one key, whatever the other users log.
  @Attr() @Index({ scope: 'userId' }) createdAt!: Date;
}

/** One page of a user's logs, newest first. */
export function logPage(userId: string, page: number, pageSize: number) {
  return AppLog.findBy({ userId }, { orderBy: { createdAt: 'desc' }, offset: page * pageSize, limit: pageSize });
}

export interface LogsResult {
  /** Messages of ann's pages 0, 1 and 2 (10, 10 and 5 lines), newest first. */
  pages: string[][];
  /** ann's and bob's log counts. */
  counts: { ann: number; bob: number };
  /** Seconds left to live of ann's newest log (about 30 days). */
  ttlSeconds: number;
  /** ann's errors, newest first. */
  errors: string[];
  /** After ann's 5 oldest logs were given half a second to live and that time passed. */
  afterExpiry: { count: number; lastPage: string[]; found: boolean; swept: number };
}

export async function run(print: Print): Promise<LogsResult> {
  // 25 lines for ann and 5 for bob, one a minute, ending now.
  const start = Date.now() - 30 * 60_000;
  const at = (minute: number) => new Date(start + minute * 60_000);
  const annLogs: AppLog[] = [];
  for (let i = 1; i <= 25; i++) {
    const level = i % 10 === 0 ? 'error' : i % 4 === 0 ? 'warn' : 'info';
    annLogs.push(await AppLog.create({ userId: 'ann', level, message: `ann #${i}`, createdAt: at(i) }));
  }
  for (let i = 1; i <= 5; i++) {
    await AppLog.create({ userId: 'bob', level: 'info', message: `bob #${i}`, createdAt: at(i) });
  }

  const pages: string[][] = [];
  for (let page = 0; page < 3; page++) {
    const logs = await logPage('ann', page, 10);
    pages.push(logs.map((log) => log.message));
    print(`ann, page ${page + 1}: ${logs.map((log) => log.message).join(', ')}`);
  }
  const counts = { ann: await AppLog.count({ userId: 'ann' }), bob: await AppLog.count({ userId: 'bob' }) };
  print(`logs per user: ann ${counts.ann}, bob ${counts.bob}`);

  const newest = annLogs[annLogs.length - 1];
  const ttlSeconds = (await newest.ttl()) ?? 0;
  print(`"${newest.message}" expires in ${(ttlSeconds / 86400).toFixed(3)} days`);

  // A scoped index and a set index together: the user's key intersected with the level's set.
  const errors = (await AppLog.findBy({ userId: 'ann', level: 'error' }, { orderBy: { createdAt: 'desc' } })).map((log) => log.message);
  print(`ann's errors: ${errors.join(', ')}`);

  // Expiry, shortened so the example can watch it: the 5 oldest lines get half a second instead of 30 days.
  for (const log of annLogs.slice(0, 5)) await log.expire(0.5);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const count = await AppLog.count({ userId: 'ann' });
  const lastPage = (await logPage('ann', 1, 10)).map((log) => log.message);
  const found = (await AppLog.find(annLogs[0].id!)) !== null;
  // The query above already deleted them (queries sweep first), so there is nothing left to sweep.
  const swept = await AppLog.sweep();
  print(
    `after the 5 oldest expired: ann has ${count} logs, page 2 is ${lastPage.join(', ')}; find("${annLogs[0].id}") -> ${found ? 'found' : 'null'}; sweep() deleted ${swept}`,
  );

  return { pages, counts, ttlSeconds, errors, afterExpiry: { count, lastPage, found, swept } };
}

if (require.main === module) runAlone('Application logs expiring after 30 days', 'example-logs', run);

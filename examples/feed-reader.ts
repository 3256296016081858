// A feed reader for several users: each reader orders their channels by hand, reads a channel's items
// newest first a page at a time, and marks items read, which takes them off the unread timeline.
// Run alone: npx ts-node examples/feed-reader.ts
import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, Unique } from '../src';
import { Print, runAlone } from './support/run-example';

// One group: a reader, their channels and the channels' items share a hash tag, so a cascade that
// removes a reader's channels and items is one script (and stays atomic on Redis Cluster).
@Model({ group: 'feeds' })
export class Reader extends BaseEntity {
  @Attr() @Unique() name!: string;
  @HasMany(() => Channel, { inverse: 'reader', onDelete: 'cascade' }) channels!: HasMany<Channel>;
}

@Model({ group: 'feeds' })
export class Channel extends BaseEntity {
  @BelongsTo(() => Reader) reader!: BelongsTo<Reader>;
  readerId?: string;
  @Attr() title!: string;
  // The reader's own order: one sorted set per reader. Fractional positions let one save move a channel.
  @Attr() @Index({ scope: 'readerId' }) position!: number;
  @HasMany(() => FeedItem, { inverse: 'channel', onDelete: 'cascade' }) items!: HasMany<FeedItem>;
}

@Model({ group: 'feeds' })
export class FeedItem extends BaseEntity {
  @BelongsTo(() => Channel) channel!: BelongsTo<Channel>;
  channelId?: string;
  @Attr() title!: string;
  // The channel id while the item is unread, absent once read: an item without it is in no index
  // scoped by it, so the unread timeline and unread count of a channel are one sorted set.
  @Attr() unreadIn?: string;
  @Attr() @Index({ scope: 'channelId' }) @Index({ scope: 'unreadIn' }) publishedAt!: Date;
}

/** A reader's channels in their order. */
export function channelsOf(reader: Reader) {
  return reader.channels.findBy({}, { orderBy: { position: 'asc' } });
}

/** Subscribes a reader to a channel, placed last. */
export async function subscribe(reader: Reader, title: string): Promise<Channel> {
  const last = await reader.channels.findOneBy({}, { orderBy: { position: 'desc' } });
  return reader.channels.create({ title, position: (last?.position ?? 0) + 1 });
}

/**
 * Moves a channel to index `to` (0-based) in its reader's order: its new position is between its new
 * neighbours', so only the moved channel is written.
 */
export async function moveChannel(reader: Reader, channel: Channel, to: number): Promise<void> {
  const others = (await channelsOf(reader)).filter((c) => c.id !== channel.id);
  const before = others[to - 1]?.position;
  const after = others[to]?.position;
  channel.position = before === undefined ? (after ?? 1) - 1 : after === undefined ? before + 1 : (before + after) / 2;
  await channel.save();
}

/** A new item in a channel, unread. */
export function publish(channel: Channel, title: string, publishedAt: Date) {
  return channel.items.create({ title, publishedAt, unreadIn: channel.id });
}

/**
 * One page of a channel's items, newest first, older than `before` (the last item of the previous page):
 * a cursor, so items published meanwhile do not shift the pages.
 */
export function itemsPage(channel: Channel, limit: number, before?: Date) {
  return channel.items.findBy(before ? { publishedAt: { lt: before } } : {}, { orderBy: { publishedAt: 'desc' }, limit });
}

/** A channel's unread items, newest first. */
export function unreadOf(channel: Channel, limit?: number) {
  return FeedItem.findBy({ unreadIn: channel.id }, { orderBy: { publishedAt: 'desc' }, limit });
}

/** Unread counts of a reader's channels, in the reader's order: one ZCARD-like count each. */
export async function unreadCounts(reader: Reader): Promise<Array<{ channel: string; unread: number }>> {
  const counts: Array<{ channel: string; unread: number }> = [];
  for (const channel of await channelsOf(reader)) {
    counts.push({ channel: channel.title, unread: await FeedItem.count({ unreadIn: channel.id }) });
  }
  return counts;
}

/** Marks an item read: clearing `unreadIn` removes it from the unread index in the same script. */
export async function markRead(item: FeedItem): Promise<void> {
  item.unreadIn = undefined;
  await item.save();
}

/** Marks every unread item of a channel read: one saveMany, each item still written atomically. */
export async function markChannelRead(channel: Channel): Promise<number> {
  const unread = await FeedItem.findBy({ unreadIn: channel.id });
  for (const item of unread) item.unreadIn = undefined;
  const result = await FeedItem.saveMany(unread);
  if (!result.ok) throw result.failed[0].error;
  return result.saved.length;
}

export interface FeedResult {
  /** Channel titles per reader, in each reader's order, after moving one of ann's. */
  channels: { ann: string[]; bob: string[] };
  /** ann's "Redis news": pages of 4 item titles, newest first, by date cursor. */
  pages: string[][];
  /** Unread counts of ann's channels before and after reading. */
  unreadBefore: Array<{ channel: string; unread: number }>;
  unreadAfter: Array<{ channel: string; unread: number }>;
  /** The unread timeline of "Redis news" after reading its two newest items. */
  unreadTimeline: string[];
  /** bob's counts are his own: ann's reading changes nothing there. */
  bobUnread: Array<{ channel: string; unread: number }>;
}

export async function run(print: Print): Promise<FeedResult> {
  const ann = await Reader.create({ name: 'ann' });
  const bob = await Reader.create({ name: 'bob' });
  const day = (d: number, hour = 12) => new Date(Date.UTC(2025, 0, d, hour));

  const redisNews = await subscribe(ann, 'Redis news');
  const nodeWeekly = await subscribe(ann, 'Node weekly');
  const cooking = await subscribe(ann, 'Cooking');
  const bobRedis = await subscribe(bob, 'Redis news');
  await subscribe(bob, 'Chess');
  print(`ann subscribes: ${(await channelsOf(ann)).map((c) => c.title).join(', ')}`);
  await moveChannel(ann, cooking, 0);
  const annChannels = (await channelsOf(ann)).map((c) => c.title);
  const bobChannels = (await channelsOf(bob)).map((c) => c.title);
  print(`ann moves Cooking to the top: ${annChannels.join(', ')}; bob's: ${bobChannels.join(', ')}`);

  for (let d = 1; d <= 10; d++) await publish(redisNews, `Redis release notes ${d}`, day(d));
  for (let d = 1; d <= 3; d++) await publish(nodeWeekly, `Node weekly #${d}`, day(d * 7));
  await publish(cooking, 'Soup', day(2));
  for (let d = 1; d <= 2; d++) await publish(bobRedis, `Redis release notes ${d}`, day(d));

  const pages: string[][] = [];
  for (let page = await itemsPage(redisNews, 4); page.length > 0; page = await itemsPage(redisNews, 4, page[page.length - 1].publishedAt)) {
    pages.push(page.map((item) => item.title));
    print(`Redis news, page ${pages.length}: ${pages[pages.length - 1].join(' | ')}`);
  }

  const unreadBefore = await unreadCounts(ann);
  print(`ann's unread: ${unreadBefore.map((c) => `${c.channel} ${c.unread}`).join(', ')}`);

  // ann reads the two newest Redis items and everything in Cooking.
  for (const item of await unreadOf(redisNews, 2)) await markRead(item);
  await markChannelRead(cooking);
  const unreadAfter = await unreadCounts(ann);
  const unreadTimeline = (await unreadOf(redisNews)).map((item) => item.title);
  print(`after reading: ${unreadAfter.map((c) => `${c.channel} ${c.unread}`).join(', ')}`);
  print(`Redis news unread timeline: ${unreadTimeline.slice(0, 3).join(' | ')} ... (${unreadTimeline.length})`);
  const bobUnread = await unreadCounts(bob);
  print(`bob's unread: ${bobUnread.map((c) => `${c.channel} ${c.unread}`).join(', ')}`);

  return { channels: { ann: annChannels, bob: bobChannels }, pages, unreadBefore, unreadAfter, unreadTimeline, bobUnread };
}

if (require.main === module) runAlone('Feed reader', 'example-feeds', run);

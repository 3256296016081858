// A short tour of redis-record: `npm run demo`.
// It runs against a throwaway redis-server (or REDIS_URL when set) and deletes every key it wrote.
// In an application, import from 'redis-record' instead of '../src'.
import { IsNotEmpty, MaxLength } from 'class-validator';
import { Attr, BaseEntity, BeforeSave, Model, ValidationError, connect, disconnect } from '../src';
import { redisForRun } from '../tools/private-redis';
import { deletePrefix, keysUnder, prefixInUse, rawClient, RawClient } from './support/prefix-keys';

@Model()
class Post extends BaseEntity {
  @Attr() @IsNotEmpty() @MaxLength(80) title!: string;
  @Attr() slug?: string;
  @Attr() views = 0; // no annotation: the type (number) is inferred from the default
  @Attr() publishedAt?: Date;
  @Attr({ type: 'json' }) tags: string[] = [];

  @BeforeSave()
  makeSlug(): void {
    this.slug = this.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  }
}

const show = (value: unknown) => JSON.stringify(value);
const step = (title: string) => console.log(`\n== ${title}`);

async function story(raw: RawClient, prefix: string): Promise<void> {
  step('create');
  const post = await Post.create({ title: 'Hello, Redis!', tags: ['intro'] });
  console.log(`Post.create -> id ${post.id}: ${show(post)}`);

  step('find');
  const found = await Post.find(post.id);
  console.log(`Post.find(${show(post.id)}) -> ${show(found)}`);

  step('update');
  found!.views += 1;
  found!.publishedAt = new Date('2025-01-02T03:04:05.678Z');
  await found!.save();
  console.log(`save() wrote only the changed attributes -> ${show(await Post.find(post.id))}`);

  step('findMany, with a missing id');
  const second = await Post.create({ title: 'Second post' });
  const ids = [post.id, '99', second.id];
  const many = await Post.findMany(ids);
  console.log(`Post.findMany(${show(ids)}) -> ${show(many.map((p) => p?.title ?? null))}`);

  step('validation failure');
  try {
    await Post.create({ title: '' });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const failure of error.errors) {
      console.log(`ValidationError: ${failure.property}: ${Object.values(failure.constraints ?? {}).join(', ')}`);
    }
  }
  console.log(`nothing written: Post.count() is still ${await Post.count()}`);

  step(`keys under "${prefix}:" (SCAN with a raw node-redis client)`);
  for (const key of await keysUnder(raw, prefix)) console.log(`${(await raw.type(key)).padEnd(6)} ${key}`);
  const hashKey = `${prefix}:{Post}:obj:${post.id}`;
  console.log(`HGETALL ${hashKey} -> ${show(await raw.hGetAll(hashKey))}`);

  step('remove');
  const id = post.id!;
  await post.remove();
  console.log(`post.remove() -> Post.exists(${show(id)}) is ${await Post.exists(id)}, Post.count() is ${await Post.count()}`);
}

/** The tour on the Redis at `url`, under `prefix`; refuses a prefix that already holds keys. */
export async function runDemo(url: string, prefix: string): Promise<void> {
  const raw = rawClient(url);
  raw.on('error', () => undefined);
  try {
    await raw.connect();
    const inUse = await prefixInUse(raw, prefix);
    if (inUse) throw new Error(`${inUse}; set DEMO_PREFIX to another prefix`);
    await connect({ url, prefix });
    try {
      await story(raw, prefix);
    } finally {
      await disconnect();
      console.log(`\n== cleanup: ${await deletePrefix(raw, prefix)}`);
    }
  } finally {
    if (raw.isOpen) await raw.close();
  }
}

async function main(): Promise<void> {
  const prefix = process.env.DEMO_PREFIX ?? 'demo';
  const redis = await redisForRun();
  console.log(`redis-record demo: ${process.env.REDIS_URL ? 'REDIS_URL' : 'a private redis-server'} at ${redis.url}, prefix "${prefix}"`);
  try {
    await runDemo(redis.url, prefix);
  } finally {
    await redis.stop();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

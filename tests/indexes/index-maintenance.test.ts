import { Attr, BaseEntity, Index, Model, Unique, UniqueConstraintError } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model()
class IxPost extends BaseEntity {
  @Attr() @Index() topic?: string;
  @Attr() @Index() score?: number;
  @Attr() @Index({ sortable: true }) title?: string;
  @Attr() userId?: string;
  @Attr() @Index({ scope: 'userId' }) createdAt?: Date;
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
}

const redis = useTestRedis();
const base = () => `${redis.prefix}:{IxPost}`;

describe('index entries follow every write', () => {
  it('creates, moves and removes entries of every kind', async () => {
    const post = await IxPost.create({
      topic: 'redis',
      score: 5,
      title: 'a\0b',
      userId: 'u1',
      createdAt: new Date(1000),
      email: 'Ann@X.io',
    });
    const b = base();
    expect(await redis.raw.sMembers(`${b}:idx:topic:redis`)).toEqual([post.id]);
    expect(await redis.raw.zScore(`${b}:idx:score`, post.id)).toBe(5);
    expect(await redis.raw.zScore(`${b}:idx:createdAt@userId:u1`, post.id)).toBe(1000);
    expect(await redis.raw.hGetAll(`${b}:uniq:email`)).toEqual({ 'ann@x.io': post.id });
    expect(await redis.raw.zCard(`${b}:lex:title`)).toBe(1);

    await expect(IxPost.create({ email: 'ANN@x.io' })).rejects.toBeInstanceOf(UniqueConstraintError);

    post.topic = 'valkey';
    post.userId = 'u2';
    post.score = undefined;
    post.email = 'bob@x.io';
    await post.save();
    expect(await redis.raw.exists(`${b}:idx:topic:redis`)).toBe(0);
    expect(await redis.raw.sMembers(`${b}:idx:topic:valkey`)).toEqual([post.id]);
    expect(await redis.raw.zScore(`${b}:idx:score`, post.id)).toBe(Infinity);
    expect(await redis.raw.exists(`${b}:idx:createdAt@userId:u1`)).toBe(0);
    expect(await redis.raw.zScore(`${b}:idx:createdAt@userId:u2`, post.id)).toBe(1000);
    expect(await redis.raw.hGetAll(`${b}:uniq:email`)).toEqual({ 'bob@x.io': post.id });

    const other = await IxPost.create({ email: 'ann@x.io' });
    await other.remove();
    await post.remove();
    expect(await keysUnder(redis.raw, redis.prefix)).toEqual([`${b}:seq`]);
  });
});

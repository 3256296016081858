import { Attr, BaseEntity, Model } from '../../src';
import { keysUnder, useTestRedis } from '../support/test-redis';

@Model()
class SmokePost extends BaseEntity {
  @Attr() author!: string;
  @Attr() views = 0;
  @Attr() published!: Date;
  @Attr() draft = true;
  @Attr({ type: 'json' }) tags: string[] = [];
}

const redis = useTestRedis();

describe('the persistence round trip', () => {
  it('creates, finds, updates, counts and removes', async () => {
    const published = new Date(1700000000123);
    const post = await SmokePost.create({ author: 'ann', published, tags: ['a', 'b'] });
    expect(post.id).toBe('1');
    const found = await SmokePost.find(post.id);
    expect(found).toBeInstanceOf(SmokePost);
    expect(found!.toJSON()).toEqual({ id: '1', author: 'ann', views: 0, published, draft: true, tags: ['a', 'b'] });
    found!.views = 3;
    await found!.save();
    expect((await SmokePost.find(1))!.views).toBe(3);
    expect(await SmokePost.count()).toBe(1);
    await found!.remove();
    expect(await SmokePost.find('1')).toBeNull();
    expect(await keysUnder(redis.raw, redis.prefix)).toEqual([`${redis.prefix}:{SmokePost}:seq`]);
  });
});

import { Attr, BaseEntity, Computed, Index, Model, Unique } from 'redis-record';
import { useTestRedis } from '../support/test-redis';

// Computed values with standard decorators (this folder is compiled without experimentalDecorators, so without
// decorator metadata: the getter's type is given).
@Model({ name: 'StdMember' })
class Member extends BaseEntity {
  @Attr({ type: 'string' }) email?: string;

  @Computed({ type: 'string' }) @Index() get domain(): string | undefined {
    return this.email?.split('@')[1];
  }

  @Computed({ type: 'string' }) @Unique() get login(): string | undefined {
    return this.email?.split('@')[0];
  }
}

useTestRedis();

describe('computed values with standard decorators', () => {
  it('are stored at each write and queried by their index', async () => {
    const ann = await Member.create({ email: 'ann@a.io' });
    await Member.create({ email: 'bob@b.io' });
    expect(await Member.findIds({ domain: 'a.io' })).toEqual([ann.id]);
    ann.email = 'ann@b.io';
    await ann.save();
    expect((await Member.findIds({ domain: 'b.io' })).length).toBe(2);
    expect((await Member.findOneBy({ login: 'ann' }))?.id).toBe(ann.id);
    expect((await Member.check()).violations).toEqual([]);
  });
});

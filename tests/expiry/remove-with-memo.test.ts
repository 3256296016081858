import { commandsFor } from '../../src/redis/commands-for';
import { Attr, BaseEntity, BelongsTo, HasMany, Index, Model, SortableString, Unique } from '../../src';
import { memoRemovalScript } from '../../src/store/indexed-removal';
import { descriptorOf } from '../../src/model/model-registry';
import { scripts as luaScripts } from '../../src/store/scripts';
import { expectIndexesConsistent } from '../support/index-consistency';
import { useScriptCalls } from '../support/script-calls';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * remove() of an object that may keep a memo of its entries (a model with a ttl, a cap, or `expirable`) and
 * that nothing depends on: one call of the model's copy of remove-memo.lua, which takes the hash, the memo, the
 * `all` and `exp` entries and every entry (from the memo, or from the stored values when there is none).
 * With a dependent model, remove.lua does it.
 */

@Model({ ttl: 3600 })
class MemoNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique({ caseInsensitive: true }) handle?: string;
  @Attr() @Index({ sortable: true }) title?: SortableString;
}

@Model({ expirable: true })
class MaybeMemoNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Unique() code?: number;
}

@Model({ cap: { by: 'score', keep: 3 } })
class CappedScore extends BaseEntity {
  @Attr() player?: string;
  @Attr() @Index() score?: number;
}

@Model({ ttl: 3600, group: 'memoowners' })
class MemoOwner extends BaseEntity {
  @Attr() @Index() name?: string;
  @HasMany(() => MemoPet, { inverse: 'owner', onDelete: 'cascade' }) pets!: HasMany<MemoPet>;
}

@Model({ group: 'memoowners' })
class MemoPet extends BaseEntity {
  @BelongsTo(() => MemoOwner) owner!: BelongsTo<MemoOwner>;
  ownerId?: string;
}

const redis = useTestRedis();
const calls = useScriptCalls(redis);
const script = (model: Function) => memoRemovalScript(descriptorOf(model).indexes);
const keysOf = async (name: string) => (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes(`{${name}}:`)).sort();

test('a ttl model: one remove-memo.lua call takes the hash, memo, exp and all entries and every entry', async () => {
  const kept = await MemoNote.create({ tag: 'a', handle: 'Kept', title: 'k' });
  const gone = await MemoNote.create({ tag: 'a', handle: 'Gone', title: 'g' });
  const goneId = gone.id!;
  calls.reset();
  await gone.remove();
  expect(calls.sent(script(MemoNote))).toBe(1);
  expect(calls.sent(luaScripts.remove())).toBe(0);
  expect(await MemoNote.findIds({ tag: 'a' })).toEqual([kept.id]);
  expect(await MemoNote.findOneBy({ handle: 'gone' })).toBeNull();
  await MemoNote.create({ handle: 'GONE' }); // the unique value is free again
  const base = `${redis.prefix}:{MemoNote}`;
  expect(await redis.raw.exists([`${base}:obj:${goneId}`, `${base}:memo:${goneId}`])).toBe(0);
  expect(await redis.raw.zScore(`${base}:exp`, goneId)).toBeNull();
  await expectIndexesConsistent(MemoNote, redis.raw, redis.prefix);
});

test('an object whose hash has expired: its entries go from its memo, and the script finds it existed', async () => {
  const note = await MemoNote.create({ tag: 'x', handle: 'expired', title: 'e' });
  const base = `${redis.prefix}:{MemoNote}`;
  // its hash vanishes as an expired one's does; its `all`, `exp`, memo and index entries wait for a sweep
  await redis.raw.del(`${base}:obj:${note.id}`);
  const reply = await script(MemoNote).run(commandsFor(redis.raw), [`${base}:all`, `${base}:obj:${note.id}`, base], [note.id!]);
  expect(reply).toBe(1);
  expect((await keysOf('MemoNote')).filter((key) => key.endsWith(`:${note.id}`))).toEqual([]);
  expect(await redis.raw.zScore(`${base}:exp`, note.id!)).toBeNull();
  expect(await MemoNote.findIds({ tag: 'x' })).toEqual([]);
  await expectIndexesConsistent(MemoNote, redis.raw, redis.prefix);
});

test('an expirable model: entries from the memo of an object given a ttl, from the stored values of one without', async () => {
  const timed = await MaybeMemoNote.create({ tag: 'm', code: 1 });
  const plain = await MaybeMemoNote.create({ tag: 'm', code: 2 });
  const kept = await MaybeMemoNote.create({ tag: 'm', code: 3 });
  await timed.expire(600);
  calls.reset();
  await timed.remove();
  await plain.remove();
  expect(calls.sent(script(MaybeMemoNote))).toBe(2);
  expect(await MaybeMemoNote.findIds({ tag: 'm' })).toEqual([kept.id]);
  expect(await MaybeMemoNote.findOneBy({ code: 1 })).toBeNull();
  expect(await MaybeMemoNote.findOneBy({ code: 2 })).toBeNull();
  expect(await redis.raw.zCard(`${redis.prefix}:{MaybeMemoNote}:exp`)).toBe(0);
  await expectIndexesConsistent(MaybeMemoNote, redis.raw, redis.prefix);
});

test('a capped model: a kept object goes whole, and the cap keeps counting the others', async () => {
  const scores: CappedScore[] = [];
  for (const [player, score] of [
    ['a', 5],
    ['b', 9],
    ['c', 7],
  ] as const)
    scores.push(await CappedScore.create({ player, score }));
  const goneId = scores[1].id!;
  calls.reset();
  await scores[1].remove();
  expect(calls.sent(script(CappedScore))).toBe(1);
  await CappedScore.create({ player: 'd', score: 1 });
  const top = await CappedScore.findBy({}, { orderBy: { score: 'desc' } });
  expect(top.map((score) => score.player)).toEqual(['c', 'a', 'd']);
  expect((await keysOf('CappedScore')).filter((key) => key.endsWith(`:${goneId}`))).toEqual([]);
  await expectIndexesConsistent(CappedScore, redis.raw, redis.prefix);
});

test('a ttl model with a dependent model is still removed by remove.lua, cascade and all', async () => {
  const owner = await MemoOwner.create({ name: 'o' });
  await owner.pets.create({});
  calls.reset();
  await owner.remove();
  expect(calls.sent(luaScripts.remove())).toBe(1);
  expect(calls.sent(script(MemoOwner))).toBe(0);
  expect(await MemoPet.count()).toBe(0);
  await expectIndexesConsistent(MemoOwner, redis.raw, redis.prefix);
});

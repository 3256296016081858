import { ValidateBy } from 'class-validator';
import {
  AfterCreate,
  AfterRemove,
  AfterSave,
  AfterUpdate,
  Attr,
  BaseEntity,
  BeforeCreate,
  BeforeRemove,
  BeforeSave,
  BeforeUpdate,
  BeforeValidate,
  Model,
  ValidationError,
} from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Hooks and validation in bulk: each item goes through exactly what save() or remove() runs, in the same
 * order; the before-steps of every item run before the writes, the after-hooks after them. A hook that throws
 * fails its own item only: before the write nothing of it is written; after the write it is stored and
 * reported with `written: true`.
 */

const log: string[] = [];

const RecordsValidation = () =>
  ValidateBy({
    name: 'recordsValidation',
    validator: { validate: (value: unknown) => (log.push(`validate ${String(value)}`), value !== 'invalid') },
  });

@Model()
class HookedItem extends BaseEntity {
  @Attr() @RecordsValidation() title!: string;
  @Attr() failAt?: string;

  private step(name: string): void {
    log.push(`${name} ${this.title}`);
    if (this.failAt === name) throw new Error(`${name} refused ${this.title}`);
  }
  @BeforeValidate beforeValidate() {
    this.step('beforeValidate');
  }
  @BeforeSave beforeSave() {
    this.step('beforeSave');
  }
  @BeforeCreate async beforeCreate() {
    await Promise.resolve();
    this.step('beforeCreate');
  }
  @BeforeUpdate beforeUpdate() {
    this.step('beforeUpdate');
  }
  @AfterCreate afterCreate() {
    this.step('afterCreate');
  }
  @AfterUpdate afterUpdate() {
    this.step('afterUpdate');
  }
  @AfterSave afterSave() {
    this.step('afterSave');
  }
  @BeforeRemove beforeRemove() {
    this.step('beforeRemove');
  }
  @AfterRemove afterRemove() {
    this.step('afterRemove');
  }
}

useTestRedis();

beforeEach(() => {
  log.length = 0;
});

describe('hooks in saveMany', () => {
  it('run per item in save() order: every before-step, then the writes, then the after-hooks', async () => {
    const loaded = await HookedItem.create({ title: 'old' });
    loaded.title = 'changed';
    log.length = 0;
    const result = await HookedItem.saveMany([{ title: 'a' }, loaded]);
    expect(result.ok).toBe(true);
    expect(log).toEqual([
      'beforeValidate a',
      'validate a',
      'beforeSave a',
      'beforeCreate a',
      'beforeValidate changed',
      'validate changed',
      'beforeSave changed',
      'beforeUpdate changed',
      'afterCreate a',
      'afterSave a',
      'afterUpdate changed',
      'afterSave changed',
    ]);
  });

  it('a before-step failure fails that item only, and writes nothing of it', async () => {
    const before = await HookedItem.count();
    const result = await HookedItem.saveMany([
      { title: 'ok' },
      { title: 'x', failAt: 'beforeValidate' },
      { title: 'invalid' },
      { title: 'y', failAt: 'beforeSave' },
      { title: 'z', failAt: 'beforeCreate' },
    ]);
    expect(result.saved.map((item) => item.title)).toEqual(['ok']);
    expect(result.failed.map((failure) => [failure.index, failure.written, failure.error.message])).toEqual([
      [1, false, 'beforeValidate refused x'],
      [2, false, expect.stringContaining('HookedItem is not valid')],
      [3, false, 'beforeSave refused y'],
      [4, false, 'beforeCreate refused z'],
    ]);
    expect(result.failed[1].error).toBeInstanceOf(ValidationError);
    expect(result.failed.some((failure) => failure.entity!.isPersisted())).toBe(false);
    expect(await HookedItem.count()).toBe(before + 1);
    // the failed items stopped where save() stops: no later hook ran for them
    expect(log.filter((line) => line.endsWith(' x'))).toEqual(['beforeValidate x']);
    expect(log.filter((line) => line.endsWith(' z'))).toEqual(['beforeValidate z', 'validate z', 'beforeSave z', 'beforeCreate z']);
  });

  it('skips class-validator with validate: false, as save() does', async () => {
    const result = await HookedItem.saveMany([{ title: 'invalid' }], { validate: false });
    expect(result.ok).toBe(true);
    expect(log).not.toContain('validate invalid');
  });

  it('an after-hook failure is reported with written: true; the object is stored', async () => {
    const result = await HookedItem.saveMany([{ title: 'after', failAt: 'afterCreate' }, { title: 'fine' }]);
    expect(result.ok).toBe(false);
    expect(result.saved.map((item) => item.title)).toEqual(['fine']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ index: 0, written: true });
    const stored = result.failed[0].entity!;
    expect(stored.isPersisted()).toBe(true);
    expect((await HookedItem.find(stored.id!))?.title).toBe('after');
    expect(log).not.toContain('afterSave after'); // as in save(), the hooks after the failing one do not run
  });
});

describe('hooks in removeMany', () => {
  it('load the objects, run BeforeRemove on each, then AfterRemove on each removed one', async () => {
    const { saved } = await HookedItem.saveMany([{ title: 'r1' }, { title: 'r2' }, { title: 'keep', failAt: 'beforeRemove' }]);
    log.length = 0;
    const result = await HookedItem.removeMany([...saved.map((item) => item.id), '999999']);
    expect(result.removed).toEqual([saved[0].id, saved[1].id]);
    expect(result.missing).toEqual(['999999']);
    expect(result.failed.map((failure) => [failure.id, failure.removed, failure.error.message])).toEqual([
      [saved[2].id, false, 'beforeRemove refused keep'],
    ]);
    expect(log).toEqual(['beforeRemove r1', 'beforeRemove r2', 'beforeRemove keep', 'afterRemove r1', 'afterRemove r2']);
    expect(await HookedItem.exists(saved[2].id)).toBe(true);
    expect(await HookedItem.exists(saved[0].id)).toBe(false);
  });

  it('an AfterRemove failure is reported with removed: true', async () => {
    const item = await HookedItem.create({ title: 'last', failAt: 'afterRemove' });
    const result = await HookedItem.removeMany([item.id]);
    expect(result.removed).toEqual([]);
    expect(result.failed).toEqual([
      { id: item.id, index: 0, removed: true, error: expect.objectContaining({ message: 'afterRemove refused last' }) },
    ]);
    expect(await HookedItem.exists(item.id)).toBe(false);
  });
});

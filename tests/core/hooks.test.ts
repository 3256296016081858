import { IsOptional, MaxLength, ValidateBy } from 'class-validator';
import {
  AfterCreate,
  AfterLoad,
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
  SchemaError,
  ValidationError,
} from '../../src';
import { useCountingConnection } from './support/counting-client';
import { keysUnder, useTestRedis } from '../support/test-redis';

/**
 * Lifecycle hooks run in a fixed order around the one write of a save or remove. Here the Redis client logs
 * its calls into the same list the hooks and a class-validator rule write to, so the order is observed,
 * not assumed.
 */

const log: string[] = [];

/** A class-validator rule that passes and records that validation ran. */
const RecordsValidation = () =>
  ValidateBy({
    name: 'recordsValidation',
    validator: { validate: () => (log.push('validate'), true) },
  });

@Model()
class HookedTask extends BaseEntity {
  @Attr() @RecordsValidation() title!: string;

  @BeforeValidate beforeValidate() {
    log.push('beforeValidate');
  }
  @BeforeSave beforeSave() {
    log.push('beforeSave');
  }
  @BeforeCreate beforeCreate() {
    log.push('beforeCreate');
  }
  @BeforeUpdate beforeUpdate() {
    log.push('beforeUpdate');
  }
  @AfterCreate afterCreate() {
    log.push('afterCreate');
  }
  @AfterUpdate afterUpdate() {
    log.push('afterUpdate');
  }
  @AfterSave afterSave() {
    log.push('afterSave');
  }
  @BeforeRemove beforeRemove() {
    log.push('beforeRemove');
  }
  @AfterRemove afterRemove() {
    log.push('afterRemove');
  }
  @AfterLoad afterLoad() {
    log.push(`afterLoad ${this.id} ${this.title}`);
  }
}

/** Hooks declared with the called form, `@BeforeSave()`. */
@Model()
class HookedCalledForm extends BaseEntity {
  @Attr() title!: string;

  @BeforeSave() beforeSave() {
    log.push('beforeSave()');
  }
  @AfterSave() afterSave() {
    log.push('afterSave()');
  }
}

abstract class HookedBase extends BaseEntity {
  @Attr() createdBy?: string;

  @BeforeSave baseBeforeSave() {
    log.push('base beforeSave');
  }
  @AfterLoad baseAfterLoad() {
    log.push('base afterLoad');
  }
}

@Model()
class HookedChild extends HookedBase {
  @Attr() title!: string;

  @BeforeSave childBeforeSave() {
    log.push('child beforeSave');
  }
  @AfterLoad childAfterLoad() {
    log.push('child afterLoad');
  }
}

@Model()
class HookedSlow extends BaseEntity {
  @Attr() title!: string;
  @Attr() stamp?: string;

  @BeforeSave async slowBeforeSave() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.stamp = 'stamped after a delay';
    log.push('slow beforeSave done');
  }
  @AfterSave async slowAfterSave() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    log.push('slow afterSave done');
  }
}

@Model()
class HookedSlug extends BaseEntity {
  @Attr() title!: string;
  @Attr() slug?: string;
  @Attr() @IsOptional() @MaxLength(6) trimmed?: string;

  @BeforeValidate trim() {
    if (this.trimmed !== undefined) this.trimmed = this.trimmed.trim();
  }
  @BeforeSave makeSlug() {
    this.slug = this.title.toLowerCase().replace(/\s+/g, '-');
  }
}

/** Throws from the hook named by `failIn`. */
@Model()
class HookedFailing extends BaseEntity {
  @Attr() title!: string;
  failIn?: string;

  private fail(kind: string) {
    if (this.failIn === kind) throw new Error(`refused in ${kind}`);
  }
  @BeforeValidate beforeValidate() {
    this.fail('beforeValidate');
  }
  @BeforeSave beforeSave() {
    this.fail('beforeSave');
  }
  @BeforeCreate beforeCreate() {
    this.fail('beforeCreate');
  }
  @BeforeUpdate beforeUpdate() {
    this.fail('beforeUpdate');
  }
  @BeforeRemove async beforeRemove() {
    await Promise.resolve();
    this.fail('beforeRemove');
  }
}

const redis = useTestRedis();
const counting = useCountingConnection(redis, log);

beforeAll(async () => {
  // Every script gets cached on the server, so each write below is one FCALL (loads, and removes of a
  // model without indexes, are one MULTI transaction).
  const warm = await HookedTask.create({ title: 'warm-up' });
  warm.title = 'warm-up 2';
  await warm.save();
  await HookedTask.find(warm.id);
  await warm.remove();
});

beforeEach(() => counting.reset());

function objectKey(model: string, id: string): string {
  return `${redis.prefix}:{${model}}:obj:${id}`;
}

describe('the order of hooks', () => {
  it('of a create: BeforeValidate, validation, BeforeSave, BeforeCreate, the write, AfterCreate, AfterSave', async () => {
    const task = await HookedTask.create({ title: 'write tests' });
    expect(log).toEqual(['beforeValidate', 'validate', 'beforeSave', 'beforeCreate', 'fCall', 'afterCreate', 'afterSave']);
    await task.remove();
  });

  it('of an update: BeforeValidate, validation, BeforeSave, BeforeUpdate, the write, AfterUpdate, AfterSave', async () => {
    const task = await HookedTask.create({ title: 'draft' });
    counting.reset();
    task.title = 'final';
    await task.save();
    expect(log).toEqual(['beforeValidate', 'validate', 'beforeSave', 'beforeUpdate', 'fCall', 'afterUpdate', 'afterSave']);
    await task.remove();
  });

  it('of a remove: BeforeRemove, the write, AfterRemove', async () => {
    const task = await HookedTask.create({ title: 'to remove' });
    counting.reset();
    await task.remove();
    expect(log).toEqual(['beforeRemove', 'fCall', 'afterRemove']);
  });

  it('with validation skipped: no validation, every hook still runs', async () => {
    const task = await HookedTask.create({ title: 'unchecked' }, { validate: false });
    expect(log).toEqual(['beforeValidate', 'beforeSave', 'beforeCreate', 'fCall', 'afterCreate', 'afterSave']);
    await task.remove();
  });
});

describe('AfterLoad', () => {
  it('runs on find, with the id and attributes already set', async () => {
    const task = await HookedTask.create({ title: 'loaded' });
    counting.reset();
    await HookedTask.find(task.id);
    expect(log).toEqual(['hGetAll', `afterLoad ${task.id} loaded`]);
    await task.remove();
  });

  it('runs on findMany, once per object found', async () => {
    const a = await HookedTask.create({ title: 'a' });
    const b = await HookedTask.create({ title: 'b' });
    counting.reset();
    await HookedTask.findMany([a.id, '999', b.id]);
    expect(log).toEqual(['multi', `afterLoad ${a.id} a`, `afterLoad ${b.id} b`]);
    await Promise.all([a.remove(), b.remove()]);
  });

  it('runs on reload', async () => {
    const task = await HookedTask.create({ title: 'before' });
    await redis.raw.hSet(objectKey('HookedTask', task.id), 'title', 'changed elsewhere');
    counting.reset();
    await task.reload();
    expect(log).toEqual(['hGetAll', `afterLoad ${task.id} changed elsewhere`]);
    await task.remove();
  });

  it('does not run on create, nor when nothing is found', async () => {
    const task = await HookedTask.create({ title: 'x' });
    await HookedTask.find('999');
    expect(log.filter((entry) => entry.startsWith('afterLoad'))).toEqual([]);
    await task.remove();
  });
});

describe('declaring hooks', () => {
  it('accepts both @BeforeSave and @BeforeSave()', async () => {
    const item = await HookedCalledForm.create({ title: 'called form' });
    expect(log).toEqual(['beforeSave()', 'fCall', 'afterSave()']);
    await item.remove();
  });

  it('inherits hooks from a base class and runs the base class hooks first', async () => {
    const child = await HookedChild.create({ title: 'child', createdBy: 'base attr' });
    expect(log.filter((entry) => entry !== 'fCall')).toEqual(['base beforeSave', 'child beforeSave']);
    counting.reset();
    const loaded = await HookedChild.findOrFail(child.id);
    expect(log.filter((entry) => entry !== 'fCall')).toEqual(['hGetAll', 'base afterLoad', 'child afterLoad']);
    expect(loaded.createdBy).toBe('base attr');
    await child.remove();
  });
});

describe('a hook method an instance hides with a property of its own', () => {
  it('is a SchemaError naming the hook before anything is written, not a TypeError', async () => {
    const item = HookedCalledForm.build({ title: 'hidden' });
    (item as unknown as Record<string, unknown>).beforeSave = 'not a method';
    const error = await item.save().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toBe(
      `HookedCalledForm.beforeSave: @BeforeSave goes on a method, and this instance's beforeSave is "not a method"`,
    );
    expect(log).toEqual([]);
    expect(item.isPersisted()).toBe(false);
  });
});

describe('async hooks', () => {
  it('are awaited before the write and before the save resolves', async () => {
    const item = await HookedSlow.create({ title: 'slow' });
    expect(log).toEqual(['slow beforeSave done', 'fCall', 'slow afterSave done']);
    expect(await redis.raw.hGet(objectKey('HookedSlow', item.id), 'stamp')).toBe('stamped after a delay');
    await item.remove();
  });
});

describe('hooks that change attributes', () => {
  it('a change made in BeforeSave is saved, on create and on update', async () => {
    const item = await HookedSlug.create({ title: 'Hello Big World' });
    expect(await redis.raw.hGet(objectKey('HookedSlug', item.id), 'slug')).toBe('hello-big-world');
    item.title = 'Second Title';
    await item.save();
    expect(await redis.raw.hGet(objectKey('HookedSlug', item.id), 'slug')).toBe('second-title');
    await item.remove();
  });

  it('a change made in BeforeValidate is what validation sees and what is saved', async () => {
    // '  padded  ' is longer than 6 characters: only the trimmed value passes @MaxLength(6).
    const item = await HookedSlug.create({ title: 't', trimmed: '  padded  ' });
    expect(await redis.raw.hGet(objectKey('HookedSlug', item.id), 'trimmed')).toBe('padded');
    await item.remove();
  });
});

describe('a before-hook that throws', () => {
  async function failingKeys(): Promise<string[]> {
    return (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.includes('{HookedFailing}:obj:'));
  }

  it.each(['beforeValidate', 'beforeSave', 'beforeCreate'])('in %s aborts the create; nothing is written', async (kind) => {
    const item = HookedFailing.build({ title: 'never stored' });
    item.failIn = kind;
    await expect(item.save()).rejects.toThrow(`refused in ${kind}`);
    expect(counting.calls).toEqual([]);
    expect(await failingKeys()).toEqual([]);
    expect(item.isPersisted()).toBe(false);
    expect(await HookedFailing.count()).toBe(0);
  });

  it.each(['beforeValidate', 'beforeSave', 'beforeUpdate'])('in %s aborts the update; the stored object is unchanged', async (kind) => {
    const item = await HookedFailing.create({ title: 'original' });
    item.title = 'changed';
    item.failIn = kind;
    counting.reset();
    await expect(item.save()).rejects.toThrow(`refused in ${kind}`);
    expect(counting.calls).toEqual([]);
    expect((await HookedFailing.findOrFail(item.id)).title).toBe('original');
    item.failIn = undefined;
    await item.remove();
  });

  it('in BeforeRemove aborts the remove; the object stays', async () => {
    const item = await HookedFailing.create({ title: 'kept' });
    item.failIn = 'beforeRemove';
    await expect(item.remove()).rejects.toThrow('refused in beforeRemove');
    expect(await HookedFailing.exists(item.id)).toBe(true);
    expect(item.isPersisted()).toBe(true);
    item.failIn = undefined;
    const id = item.id;
    await item.remove();
    expect(await HookedFailing.exists(id)).toBe(false);
  });

  it('is not wrapped: the hook error itself reaches the caller', async () => {
    const item = HookedFailing.build({ title: 'x' });
    item.failIn = 'beforeSave';
    const error = await item.save().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('refused in beforeSave');
  });
});

/** An AfterSave hook that saves its own instance once more, without awaiting it (docs/validation-and-hooks.md). */
@Model()
class HookedResave extends BaseEntity {
  @Attr() title!: string;
  @Attr() saves = 0;
  resave = false;

  @AfterSave afterSave() {
    if (!this.resave) return;
    this.resave = false;
    this.saves++;
    void this.save();
  }
}

describe('a hook that saves its own instance', () => {
  it('without awaiting it: the save runs once the operation running the hook is done', async () => {
    const item = await HookedResave.create({ title: 'x' });
    item.resave = true;
    item.title = 'y';
    await item.save();
    // reload() runs after every operation already queued on the instance, the hook's save included
    await item.reload();
    expect(item.title).toBe('y');
    expect(item.saves).toBe(1);
    expect((await HookedResave.findOrFail(item.id!)).saves).toBe(1);
  });
});

import { Attr, BaseEntity, DecodeError, InvalidIdError, Model, NotFoundError } from '../../src';
import { useCountingConnection } from './support/counting-client';
import { useTestRedis } from '../support/test-redis';

/**
 * Reading by id: a missing id is null (or NotFoundError from findOrFail), never an empty object; each read
 * costs one round trip, however many ids; an id that could forge another key is refused before anything is sent.
 */

@Model()
class LookupNote extends BaseEntity {
  @Attr() body!: string;
}

@Model()
class LookupCounter extends BaseEntity {
  @Attr() value!: number;
}

const redis = useTestRedis();
const counting = useCountingConnection(redis);

beforeAll(async () => {
  for (const body of ['one', 'two', 'three']) await LookupNote.create({ body });
  await LookupNote.find('1'); // the load script is cached on the server from here on
  counting.reset();
});

beforeEach(() => counting.reset());

describe('find', () => {
  it('returns the object, an instance of the model', async () => {
    const note = await LookupNote.find('2');
    expect(note).toBeInstanceOf(LookupNote);
    expect(note!.id).toBe('2');
    expect(note!.body).toBe('two');
  });

  it('accepts a numeric id', async () => {
    expect((await LookupNote.find(3))!.body).toBe('three');
  });

  it('returns null for a missing id', async () => {
    expect(await LookupNote.find('99')).toBeNull();
  });

  it('costs one command: HGETALL of the hash', async () => {
    await LookupNote.find('1');
    await LookupNote.find('99');
    expect(counting.calls).toEqual(['hGetAll', 'hGetAll']);
  });

  it('does not see a hash that is not an object: no `#id`, or another id in it', async () => {
    const key = `${redis.prefix}:{LookupNote}:obj:500`;
    try {
      await redis.raw.hSet(key, { body: 'orphan' });
      expect(await LookupNote.find('500')).toBeNull();
      await redis.raw.hSet(key, { '#id': '501' });
      expect(await LookupNote.find('500')).toBeNull();
    } finally {
      await redis.raw.del(key);
    }
  });
});

describe('a stored value written by something else', () => {
  it('that the codec cannot read throws DecodeError naming the model, id and attribute', async () => {
    const counter = await LookupCounter.create({ value: 1 });
    await redis.raw.hSet(`${redis.prefix}:{LookupCounter}:obj:${counter.id}`, 'value', 'not a number');
    const error = await LookupCounter.find(counter.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ model: 'LookupCounter', id: counter.id, attribute: 'value' });
    await counter.remove();
  });
});

describe('findOrFail', () => {
  it('returns the object when it exists', async () => {
    expect((await LookupNote.findOrFail('1')).body).toBe('one');
  });

  it('throws NotFoundError naming the model and the id', async () => {
    const error = await LookupNote.findOrFail('99').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ model: 'LookupNote', id: '99' });
    expect((error as Error).message).toContain('LookupNote');
    expect((error as Error).message).toContain('99');
  });
});

describe('findMany', () => {
  it('returns the objects in the order of the ids, with null where one is missing', async () => {
    const notes = await LookupNote.findMany(['1', '2', '99']);
    expect(notes).toHaveLength(3);
    expect(notes[0]!.body).toBe('one');
    expect(notes[1]!.body).toBe('two');
    expect(notes[2]).toBeNull();
  });

  it('keeps the order given, repeats included', async () => {
    const notes = await LookupNote.findMany([3, '98', '1', 3]);
    expect(notes.map((note) => note?.body ?? null)).toEqual(['three', null, 'one', 'three']);
    expect(notes[0]).not.toBe(notes[3]);
  });

  it('costs one round trip for any number of ids', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => String(i + 1));
    const notes = await LookupNote.findMany(ids);
    expect(notes.filter((note) => note !== null)).toHaveLength(3);
    expect(counting.calls).toEqual(['multi']);
  });

  it('returns [] for no ids without sending anything', async () => {
    expect(await LookupNote.findMany([])).toEqual([]);
    expect(counting.calls).toEqual([]);
  });
});

describe('exists and count', () => {
  it('exists tells whether an id is stored, in one round trip each', async () => {
    expect(await LookupNote.exists('1')).toBe(true);
    expect(await LookupNote.exists(2)).toBe(true);
    expect(await LookupNote.exists('99')).toBe(false);
    expect(counting.calls).toHaveLength(3);
  });

  it('count is the number of stored objects, in one round trip', async () => {
    expect(await LookupNote.count()).toBe(3);
    expect(counting.calls).toHaveLength(1);
  });

  it('count follows creates and removes', async () => {
    const extra = await LookupNote.create({ body: 'four' });
    expect(await LookupNote.count()).toBe(4);
    const id = extra.id;
    await extra.remove();
    expect(await LookupNote.count()).toBe(3);
    expect(await LookupNote.exists(id)).toBe(false);
  });
});

describe('invalid ids', () => {
  const invalidIds: Array<[string, string | number]> = [
    ['the empty string', ''],
    ['a glob star', '*'],
    ['a colon that would reach another key', '1:attributes'],
    ['braces (a hash tag)', '{x}'],
    ['a path', '../x'],
    ['a space', '1 2'],
    ['a newline', '1\n'],
    ['non-ASCII', 'é'],
    ['129 characters', 'a'.repeat(129)],
    ['a negative number', -1],
    ['a fraction', 1.5],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a number beyond the safe integers', 2 ** 53],
  ];

  it.each(invalidIds)('%s: find, findOrFail, exists and findMany throw InvalidIdError and send nothing', async (_label, id) => {
    await expect(LookupNote.find(id)).rejects.toThrow(InvalidIdError);
    await expect(LookupNote.findOrFail(id)).rejects.toThrow(InvalidIdError);
    await expect(LookupNote.exists(id)).rejects.toThrow(InvalidIdError);
    await expect(LookupNote.findMany(['1', id])).rejects.toThrow(InvalidIdError);
    expect(counting.calls).toEqual([]);
  });

  it('names the model and the id in the error', async () => {
    const error = await LookupNote.find('1:attributes').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidIdError);
    expect(error).toMatchObject({ model: 'LookupNote', id: '1:attributes' });
  });

  it.each([
    ['letters, digits, _ and -', 'Ab_9-z'],
    ['128 characters', 'a'.repeat(128)],
    ['0', 0],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ])('accepts %s (and finds nothing)', async (_label, id) => {
    expect(await LookupNote.find(id)).toBeNull();
  });

  it('refuses values that are not strings or numbers', async () => {
    for (const id of [null, undefined, {}, ['1'], 1n, true]) {
      await expect(LookupNote.find(id as never)).rejects.toThrow(InvalidIdError);
    }
    expect(counting.calls).toEqual([]);
  });
});

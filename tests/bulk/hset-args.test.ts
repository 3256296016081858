import { fieldsOfHsetArgs, HsetArgsSink, ID_SLOT, KEY_SLOT, newHsetArgs } from '../../src/mapper/hset-args';

/** A bulk create's HSET arguments: written field by field, read back as a lookup and as a snapshot map. */
describe('HSET arguments of a new object', () => {
  it('take fields in the room made for them, drop the room left, and read back in order', () => {
    const args = newHsetArgs(3);
    const sink = new HsetArgsSink().use(args);
    sink.set('author', 'ann').set('topic', 't1');
    sink.finish();
    expect(args).toEqual(['HSET', '', '#id', '', 'author', 'ann', 'topic', 't1']);
    expect(sink.get('topic')).toBe('t1');
    expect(sink.get('content')).toBeUndefined();
    args[KEY_SLOT] = 'p:{Post}:obj:7';
    args[ID_SLOT] = '7';
    expect([...fieldsOfHsetArgs(args)]).toEqual([
      ['author', 'ann'],
      ['topic', 't1'],
    ]);
  });

  it('grow past the room made (dynamic attributes), and a reader picks up after the fields already there', () => {
    const args = newHsetArgs(1);
    const sink = new HsetArgsSink().use(args);
    sink.set('a', '1').set('~x', 's2').set('~y', 'n3');
    sink.finish();
    expect(args.slice(4)).toEqual(['a', '1', '~x', 's2', '~y', 'n3']);
    const reader = new HsetArgsSink().use(args);
    expect(reader.get('~y')).toBe('n3');
    reader.set('b', '4');
    expect(args.slice(-2)).toEqual(['b', '4']);
  });

  it('read back as a map, the last of a repeated field winning as in HSET', () => {
    const args = newHsetArgs(2);
    new HsetArgsSink().use(args).set('title', 'Hello').set('views', '3').finish();
    expect(fieldsOfHsetArgs(args)).toEqual(
      new Map([
        ['title', 'Hello'],
        ['views', '3'],
      ]),
    );
    const repeated = newHsetArgs(2);
    const sink = new HsetArgsSink().use(repeated).set('f', 'old').set('f', 'new');
    expect(sink.get('f')).toBe('new');
    sink.finish();
    expect(fieldsOfHsetArgs(repeated).get('f')).toBe('new');
  });
});

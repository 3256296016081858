import { ChunkSnapshots } from '../../src/mapper/chunk-snapshots';
import { HsetArgsSink, newHsetArgs } from '../../src/mapper/hset-args';

/** The snapshots of a bulk create's chunk: one array of values, each object's slot found from its id. */
describe('the snapshots of a chunk', () => {
  const written = (id: string, ...pairs: string[]) => {
    const args = newHsetArgs(pairs.length / 2);
    const sink = new HsetArgsSink().use(args);
    for (let at = 0; at < pairs.length; at += 2) sink.set(pairs[at], pairs[at + 1]);
    sink.finish();
    args[1] = `p:{Card}:obj:${id}`;
    args[3] = id;
    return args;
  };

  it("give each id back its own fields, absent ones left out, in the model's order", () => {
    const snapshots = new ChunkSnapshots(['kind', 'at', 'note'], 41, 3);
    expect(snapshots.keep('41', written('41', 'kind', 'a', 'at', '1', 'note', 'x'))).toBe(true);
    // 42 was refused before the write: its slot is never filled
    expect(snapshots.keep('43', written('43', 'at', '3'))).toBe(true);
    expect([...snapshots.fieldsOf('41')]).toEqual([
      ['kind', 'a'],
      ['at', '1'],
      ['note', 'x'],
    ]);
    expect([...snapshots.fieldsOf('43')]).toEqual([['at', '3']]);
    expect(snapshots.fieldsOf('42').size).toBe(0);
  });

  it('take fields out of order, and a field written twice keeps its last value, as HSET does', () => {
    const snapshots = new ChunkSnapshots(['kind', 'at', 'note'], 1, 1);
    expect(snapshots.keep('1', written('1', 'note', 'x', 'kind', 'a', 'note', 'y'))).toBe(true);
    expect([...snapshots.fieldsOf('1')]).toEqual([
      ['kind', 'a'],
      ['note', 'y'],
    ]);
  });

  it("refuse a field that is not the model's, keeping nothing of that object", () => {
    const snapshots = new ChunkSnapshots(['kind', 'at'], 1, 2);
    expect(snapshots.keep('2', written('2', 'kind', 'b', '~extra', 'sz'))).toBe(false);
    expect(snapshots.fieldsOf('2').size).toBe(0);
    expect(snapshots.keep('1', written('1', 'kind', 'a'))).toBe(true);
    expect([...snapshots.fieldsOf('1')]).toEqual([['kind', 'a']]);
  });
});

import { SharedSnapshots, sharedSnapshots, SNAPSHOT_GROUP, SnapshotFields } from '../../src/mapper/shared-snapshots';
import { dateCodec } from '../../src/codecs/date-codec';
import { HsetArgsSink, newHsetArgs } from '../../src/mapper/hset-args';

/** The snapshots of a few new objects of a bulk create: one array of values, each object's slot found from its id. */
describe('shared snapshots', () => {
  const written = (id: string, ...pairs: string[]) => {
    const args = newHsetArgs(pairs.length / 2);
    const sink = new HsetArgsSink().use(args);
    for (let at = 0; at < pairs.length; at += 2) sink.set(pairs[at], pairs[at + 1]);
    sink.finish();
    args[1] = `p:{Card}:obj:${id}`;
    args[3] = id;
    return args;
  };
  /** Fields of which none holds a Date. */
  const plain = (...names: string[]): SnapshotFields => ({ names, dates: names.map(() => false) });

  it("give each id back its own fields, absent ones left out, in the model's order", () => {
    const snapshots = new SharedSnapshots(plain('kind', 'at', 'note'), 41, 3);
    expect(snapshots.keep(41, written('41', 'kind', 'a', 'at', '1', 'note', 'x'))).toBe(true);
    // 42 was refused before the write: its slot is never filled
    expect(snapshots.keep(43, written('43', 'at', '3'))).toBe(true);
    expect([...snapshots.fieldsOf('41')]).toEqual([
      ['kind', 'a'],
      ['at', '1'],
      ['note', 'x'],
    ]);
    expect([...snapshots.fieldsOf('43')]).toEqual([['at', '3']]);
    expect(snapshots.fieldsOf('42').size).toBe(0);
  });

  it("keep a Date's milliseconds as a number and give back the very string written, whatever the time", () => {
    // times of every size a Date holds, written as dateCodec writes them: below 10^6, past 2^31 * 10^6, the
    // ends of a Date's range (±8.64e15), negative
    const times = [0, 999_999, 1_000_000, 1_700_000_000_123, 2 ** 31 * 1e6 - 1, 2 ** 31 * 1e6, 8.64e15, -1, -8.64e15];
    const fields: SnapshotFields = { names: ['kind', 'at'], dates: [false, true] };
    const snapshots = new SharedSnapshots(fields, 1, times.length);
    times.forEach((time, i) =>
      expect(snapshots.keep(1 + i, written(String(1 + i), 'kind', '7', 'at', dateCodec.encode(new Date(time))))).toBe(true),
    );
    times.forEach((time, i) => {
      const snapshot = snapshots.fieldsOf(String(1 + i));
      expect(snapshot.get('at')).toBe(String(time));
      // a field not marked as a time keeps its string as it is, number-like or not
      expect(snapshot.get('kind')).toBe('7');
    });
  });

  it('take fields out of order, and a field written twice keeps its last value, as HSET does', () => {
    const snapshots = new SharedSnapshots(plain('kind', 'at', 'note'), 1, 1);
    expect(snapshots.keep(1, written('1', 'note', 'x', 'kind', 'a', 'note', 'y'))).toBe(true);
    expect([...snapshots.fieldsOf('1')]).toEqual([
      ['kind', 'a'],
      ['note', 'y'],
    ]);
  });

  it("refuse a field that is not the model's, keeping nothing of that object", () => {
    const snapshots = new SharedSnapshots(plain('kind', 'at'), 1, 2);
    expect(snapshots.keep(2, written('2', 'kind', 'b', '~extra', 'sz'))).toBe(false);
    expect(snapshots.fieldsOf('2').size).toBe(0);
    expect(snapshots.keep(1, written('1', 'kind', 'a'))).toBe(true);
    expect([...snapshots.fieldsOf('1')]).toEqual([['kind', 'a']]);
  });

  it("are grouped by SNAPSHOT_GROUP ids from the first written one; an object with a field not the model's keeps its arguments", () => {
    // ids 101 to 140, 105 refused before the write (no arguments), 120 with a field the list does not hold
    const ids: string[] = [];
    const hsets: string[][] = [];
    for (let id = 101; id <= 140; id++) {
      if (id === 105) continue;
      ids.push(String(id));
      hsets.push(id === 120 ? written(String(id), 'kind', 'x', '~extra', 'sz') : written(String(id), 'kind', `k${id}`));
    }
    // the call's ids run from 100: the object at position p has id 100 + p
    const kept = sharedSnapshots(
      plain('kind', 'at'),
      100,
      ids.map((id) => Number(id) - 100),
      hsets,
    );
    const of = (id: number) => kept[ids.indexOf(String(id))];
    // 101 to 116 share one array, 117 to 132 the next, 133 to 140 a last one
    expect(SNAPSHOT_GROUP).toBe(16);
    expect(new Set([101, 104, 106, 116].map(of)).size).toBe(1);
    expect(of(117)).not.toBe(of(116));
    expect(of(132)).toBe(of(117));
    expect(of(133)).not.toBe(of(132));
    expect(of(140)).toBe(of(133));
    for (const id of [101, 116, 117, 132, 133, 140]) {
      const snapshot = of(id);
      expect(snapshot).toBeInstanceOf(SharedSnapshots);
      expect([...(snapshot as SharedSnapshots).fieldsOf(String(id))]).toEqual([['kind', `k${id}`]]);
    }
    // its own arguments, the key dropped (as keptAfterWrite leaves them)
    expect(of(120)).toEqual(['HSET', '', '#id', '120', 'kind', 'x', '~extra', 'sz']);
  });
});

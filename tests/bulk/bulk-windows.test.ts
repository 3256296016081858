import { inRanges, inWindows } from '../../src/entity/bulk/bulk-windows';

/** A slice's work that stays under way until `release` is called for it: the test decides when each settles. */
function held() {
  const started: Array<[number, number]> = [];
  const pending: Array<() => void> = [];
  let running = 0;
  let most = 0;
  const work = (from: number, to: number) =>
    new Promise<void>((resolve) => {
      started.push([from, to]);
      most = Math.max(most, ++running);
      pending.push(() => {
        running--;
        resolve();
      });
    });
  const releaseAll = async () => {
    // each release lets its lane take the next slice, after a tick
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { started, work, releaseAll, most: () => most };
}

describe('inRanges: a bulk call’s slices of positions, without a list of positions', () => {
  it('covers start to end in slices of at most `size`, in order, the last one short', async () => {
    const { started, work, releaseAll } = held();
    const done = inRanges(4, 15, 5, 1, work);
    await releaseAll();
    await done;
    expect(started).toEqual([
      [4, 9],
      [9, 14],
      [14, 15],
    ]);
  });

  it('keeps at most `inFlight` slices under way, and starts the next as one settles', async () => {
    const { started, work, releaseAll, most } = held();
    const done = inRanges(0, 10, 2, 3, work);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
    ]);
    await releaseAll();
    await done;
    expect(started.map(([from]) => from)).toEqual([0, 2, 4, 6, 8]);
    expect(most()).toBe(3);
  });

  it('starts no more lanes than there are slices, and does nothing for an empty range', async () => {
    const { started, work, releaseAll, most } = held();
    const done = inRanges(3, 5, 10, 4, work);
    await releaseAll();
    await done;
    expect(started).toEqual([[3, 5]]);
    expect(most()).toBe(1);
    const none = jest.fn(() => Promise.resolve());
    await inRanges(7, 7, 10, 3, none);
    expect(none).not.toHaveBeenCalled();
  });

  it('takes a size of Infinity as one slice', async () => {
    const slices: Array<[number, number]> = [];
    await inRanges(0, 6, Number.POSITIVE_INFINITY, 3, async (from, to) => void slices.push([from, to]));
    expect(slices).toEqual([[0, 6]]);
  });

  it('rejects with the first failure once every lane has stopped: the failed lane takes no more slices', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const failure = new Error('slice 2 refused');
    const done = inRanges(0, 8, 2, 2, async (from) => {
      started.push(from);
      await new Promise((resolve) => setImmediate(resolve));
      if (from === 2) throw failure;
      finished.push(from);
    });
    await expect(done).rejects.toBe(failure);
    // every slice started was also finished or failed before the call settled
    expect([...finished, 2].sort()).toEqual([...started].sort());
    // the lane of slice 2 stopped; the other lane went on to the end
    expect(finished).toEqual([0, 4, 6]);
  });
});

describe('inWindows: the same over a list, each slice given as its items', () => {
  it('hands each slice its items, in order', async () => {
    const slices: string[][] = [];
    await inWindows(['a', 'b', 'c', 'd', 'e'], 2, 2, async (slice) => void slices.push([...slice]));
    expect(slices).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });
});

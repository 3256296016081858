/**
 * Runs `work` on consecutive slices of `items` of at most `size`, with at most `inFlight` slices awaiting
 * Redis at once: enough to keep the connection busy (each slice is sent while the previous ones are being
 * applied) while the arguments of a huge call are built a few slices at a time, not all at once.
 * Resolves once every slice is done. A slice that rejects stops its lane; the others go on to the end, and
 * the call then rejects with the first rejection.
 */
export function inWindows<I>(
  items: readonly I[],
  size: number,
  inFlight: number,
  work: (slice: readonly I[]) => Promise<void>,
): Promise<void> {
  return inRanges(0, items.length, size, inFlight, (from, to) => work(items.slice(from, to)));
}

/**
 * inWindows over the positions `start` to `end` (excluded) of a list the caller holds: `work(from, to)` for
 * each slice, with no array of positions made (a bulk call of 100,000 items would make one of 800 KB, and
 * memory that large is taken fresh from the kernel on each call).
 */
export async function inRanges(
  start: number,
  end: number,
  size: number,
  inFlight: number,
  work: (from: number, to: number) => Promise<void>,
): Promise<void> {
  let next = start;
  const lane = async (): Promise<void> => {
    while (next < end) {
      const from = next;
      next = Math.min(next + size, end);
      await work(from, next);
    }
  };
  const lanes: Array<Promise<void>> = [];
  // a lane per slice, up to inFlight (`at` steps rather than i * size, which is NaN for i = 0 and size Infinity)
  for (let i = 0, at = start; i < inFlight && at < end; i++, at += size) lanes.push(lane());
  const settled = await Promise.allSettled(lanes);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
}

/**
 * Runs `work(i)` for every i below `count`, at most `inFlight` at a time, each started as soon as one before it
 * settles: for one round trip per item (pipelined on the connection), with a bounded number of them under way.
 * `work` settles its own failures; resolves once every call is done.
 */
export async function eachInFlight(count: number, inFlight: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  const lanes: Array<Promise<void>> = [];
  for (let i = 0; i < inFlight && i < count; i++) lanes.push(lane());
  await Promise.all(lanes);
}

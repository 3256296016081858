/**
 * Runs `work` on consecutive slices of `items` of at most `size`, with at most `inFlight` slices awaiting
 * Redis at once: enough to keep the connection busy (each slice is sent while the previous ones are being
 * applied) while the arguments of a huge call are built a few slices at a time, not all at once.
 * Resolves once every slice is done; the first rejection rejects it (after the slices in flight settle).
 */
export async function inWindows<I>(
  items: readonly I[],
  size: number,
  inFlight: number,
  work: (slice: readonly I[]) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const slice = items.slice(next, next + size);
      next += size;
      await work(slice);
    }
  };
  const lanes: Array<Promise<void>> = [];
  for (let i = 0; i < inFlight && i * size < items.length; i++) lanes.push(lane());
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

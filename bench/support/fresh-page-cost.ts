/**
 * What the machine charges for memory a process touches for the first time: the time of one minor page fault,
 * taken by writing one byte into each 4 KiB page of a fresh 64 MiB buffer. A machine of its own takes a
 * fraction of a microsecond per page; some virtual machines take tens of times more, and then every page a
 * bulk load's writer or Redis takes from the kernel (their page faults, in the suite's log) weighs on the run
 * (docs/bulk-operations.md, "Memory Redis takes back"). Recorded with each suite run, beside the CPU, so that
 * runs on different machines can be told apart.
 *
 * Returns microseconds per fault, or null when the buffer took too few faults to tell (huge pages, or a
 * platform that does not count minor faults).
 */
export function freshPageMicros(): number | null {
  const PAGE = 4096;
  const size = 64 * 1024 * 1024;
  const faultsBefore = process.resourceUsage().minorPageFault;
  const began = process.hrtime.bigint();
  // allocUnsafeSlow: memory straight from the allocator (a mapping of its own at this size), never zeroed by
  // Node, so each page's first write is its fault
  const buffer = Buffer.allocUnsafeSlow(size);
  for (let at = 0; at < size; at += PAGE) buffer[at] = 1;
  const micros = Number(process.hrtime.bigint() - began) / 1000;
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  if (faults < size / PAGE / 2) return null;
  return Math.round((micros / faults) * 100) / 100;
}

/** How the reports give a reading of freshPageMicros: `12.4 us`, or `not measurable`. */
export function describeFreshPage(micros: number | null): string {
  return micros === null ? 'not measurable' : `${micros} us`;
}

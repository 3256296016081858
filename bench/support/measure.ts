/** Throws unless `condition`: a benchmark checks its answers before it trusts its timings. */
export function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`benchmark self-check failed: ${message}`);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

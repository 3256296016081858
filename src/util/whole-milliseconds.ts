/**
 * A number of seconds as whole milliseconds, or undefined when it is not a finite number or is finer than a
 * millisecond. `seconds * 1000` carries the binary error of `seconds` (1.001 * 1000 is 1000.9999999999999), so
 * a product within a few units in the last place of a whole number is that number.
 */
export function wholeMilliseconds(seconds: unknown): number | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return undefined;
  const product = seconds * 1000;
  const ms = Math.round(product);
  return Math.abs(product - ms) <= 4 * Number.EPSILON * Math.max(1, Math.abs(ms)) ? ms : undefined;
}

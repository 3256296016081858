/** Milliseconds of a TIME reply ([seconds, microseconds]), as objects.lua's nowMs and claim-unique.lua compute them. */
export function timeMs(reply: unknown): number {
  const [seconds, micros] = reply as [unknown, unknown];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

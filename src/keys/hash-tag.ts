/**
 * The part of a key Redis Cluster hashes to pick its slot: the text between the first `{` and the first `}` after
 * it when that is not empty, the whole key otherwise. Keys with the same tag share a slot.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

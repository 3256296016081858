/**
 * The hand-written update every benchmark compares save() with: HSET only while the post is still listed in
 * `all` (KEYS[1] `all`, KEYS[2] the post's hash; ARGV id, field, value), as redis-record's save() of a stored
 * object refuses to revive a deleted one. Returns 1 when written, 0 when the post is gone.
 */
export const GUARDED_HSET = `if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  return 1
end
return 0`;

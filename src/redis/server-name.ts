/**
 * The server and its version as INFO's server section gives them: `Redis 7.0.15`, or `Valkey 8.0.1` for a
 * Valkey, which also gives a `redis_version` (the Redis version it answers as, 7.2.4 for Valkey 8). Undefined
 * when the section names neither.
 */
export function serverNameOf(info: string): string | undefined {
  const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
  const valkey = field('valkey_version');
  if (valkey) return `Valkey ${valkey}`;
  const redis = field('redis_version');
  return redis ? `Redis ${redis}` : undefined;
}

import { readFileSync } from 'fs';
import type { Client } from './bench-redis';

/** The minor page faults Redis's process has taken so far, or null where they cannot be read. */
export type RedisFaults = () => number | null;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * A reader of the minor page faults of the Redis behind `raw` (field 10 of /proc/<pid>/stat): memory the
 * server touches for the first time, or again after its allocator gave it back to the kernel. Only a server on
 * this machine can be read: the reader gives null for another host, or where the process INFO names is not a
 * Redis or Valkey server here.
 */
export async function redisFaults(raw: Client, url: string): Promise<RedisFaults> {
  const none: RedisFaults = () => null;
  if (!LOOPBACK.has(new URL(url).hostname)) return none;
  const pid = Number(/process_id:(\d+)/.exec(await raw.info('server'))?.[1]);
  if (!Number.isSafeInteger(pid)) return none;
  try {
    if (!/^(redis|valkey)-server/.test(readFileSync(`/proc/${pid}/comm`, 'utf8'))) return none;
  } catch {
    return none;
  }
  return () => {
    try {
      // the fields after the command name, which is in parentheses and may hold spaces: minflt is the 8th
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[7]);
    } catch {
      return null;
    }
  };
}

/** The faults taken between two readings, or null when either could not be read. */
export function faultsBetween(before: number | null, after: number | null): number | null {
  return before === null || after === null ? null : after - before;
}

import { spawnSync } from 'child_process';
import { aofManifest } from './aof-history';

/**
 * Mends the append-only file a killed redis-server left in `dataDir` with `redis-check-aof --fix` (shipped with
 * redis-server: Debian's redis-tools), before the server is started again; resolves whether it had to cut.
 *
 * Why not leave it to the server (`aof-load-truncated yes`, the default): a kill in the middle of writing a
 * script's effects leaves a MULTI block without its EXEC, and Redis 7.0 then cuts the file after the block's
 * last whole command instead of before its MULTI. The next writes are appended to that open block, and the
 * restart after that runs the unacknowledged script's first commands together with them: half of a script
 * that was never acknowledged comes back (docs/consistency.md, "Redis stops or restarts"). redis-check-aof
 * cuts before the MULTI.
 */
export function fixAofTail(dataDir: string): boolean {
  const manifest = aofManifest(dataDir);
  if (!manifest) return false;
  const run = spawnSync('redis-check-aof', ['--fix', manifest], { input: 'y\n', encoding: 'utf8' });
  if (run.error) throw new Error(`redis-check-aof could not run (${run.error.message}): it comes with redis-server (Debian: redis-tools)`);
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`redis-check-aof --fix failed (exit ${run.status}): ${output.slice(-500)}`);
  return /Successfully truncated/.test(output);
}

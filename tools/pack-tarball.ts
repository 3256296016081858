import { spawnSync } from 'child_process';
import { readdirSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = join(__dirname, '..');

/**
 * The package as npm publishes it: `npm pack` into `into` (its prepack script builds dist/ first), or the
 * tarball REDIS_RECORD_TARBALL names, packed before. Gives the tarball's path.
 */
export function packTarball(into: string): string {
  if (process.env.REDIS_RECORD_TARBALL) return resolve(process.env.REDIS_RECORD_TARBALL);
  const result = spawnSync('npm', ['pack', '--pack-destination', into, '--loglevel=error'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`npm pack failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  const packed = readdirSync(into).filter((file) => file.endsWith('.tgz'));
  if (packed.length !== 1) throw new Error(`npm pack left ${packed.join(', ') || 'no tarball'} in ${into}`);
  return join(into, packed[0]);
}

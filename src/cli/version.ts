import { readFileSync } from 'fs';
import { dirname, join } from 'path';

/**
 * The version of the installed package: from the nearest package.json above this file named redis-record
 * (dist/cli/ in the package, src/cli/ in the repository, a test's compiled copy under node_modules/.cache).
 */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'redis-record' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here, or not one to read: look further up
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

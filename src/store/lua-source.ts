import { readdirSync, readFileSync } from 'fs';
import { join, relative, sep } from 'path';

/**
 * The Lua of the function library, read from the .lua files under src/store. The build replaces this module in
 * dist/ with one holding every file's text (tools/embed-lua), so that a bundled application needs no file on disk.
 */
const ROOT = __dirname;

/** The text of the .lua file at `path`, relative to src/store (e.g. 'lua/lib/indexes.lua'). */
export function luaSource(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every .lua file under src/store, as paths relative to it, sorted. */
export function luaFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.lua')) found.push(relative(ROOT, path).split(sep).join('/'));
    }
  };
  walk(ROOT);
  return found.sort();
}

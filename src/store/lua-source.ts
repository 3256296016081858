import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

/**
 * The one reader of the Lua under src/store/. Here it reads the files from disk, so that tests and ts-node run
 * with no build step; `npm run build` replaces this module's compiled JS with one that holds every .lua file as
 * a string (tools/embed-lua.js), so that the package reads no file at run time and bundlers can inline it.
 */

let listed: readonly string[] | undefined;

/** The .lua files, listed once per process, as the built module's list is fixed at build time. */
function listedFiles(): readonly string[] {
  if (!listed) {
    const found: string[] = [];
    const walk = (relative: string): void => {
      for (const entry of readdirSync(join(__dirname, relative), { withFileTypes: true })) {
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.lua')) found.push(path);
      }
    };
    walk('');
    listed = found.sort();
  }
  return listed;
}

/** Every .lua path under src/store/, relative to it, with `/` separators (e.g. 'lua/save.lua'), sorted. */
export function luaFiles(): string[] {
  return [...listedFiles()];
}

/** The text of the .lua file at `relativePath` under src/store/ (e.g. 'lua/save.lua'). */
export function luaSource(relativePath: string): string {
  if (!listedFiles().includes(relativePath)) throw new Error(`redis-record: no Lua file ${JSON.stringify(relativePath)} under src/store/`);
  return readFileSync(join(__dirname, relativePath), 'utf8');
}

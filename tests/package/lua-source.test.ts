import { readdirSync, readFileSync } from 'fs';
import { join, relative, sep } from 'path';
import { runInNewContext } from 'vm';
import { luaFiles, luaSource } from '../../src/store/lua-source';
import { functionLibrary } from '../../src/store/function-library';

const { embeddedLuaModule } = require('../../tools/embed-lua.js') as { embeddedLuaModule(): string };
const storeDir = join(__dirname, '..', '..', 'src', 'store');

/** Every .lua file under src/store/, found here independently of lua-source.ts. */
function luaOnDisk(dir = storeDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? luaOnDisk(join(dir, entry.name))
      : entry.name.endsWith('.lua')
        ? [relative(storeDir, join(dir, entry.name)).split(sep).join('/')]
        : [],
  );
}

/** The module the build puts in dist/, run with no `require` at all: it must read no file. */
function builtModule(): { luaFiles(): string[]; luaSource(path: string): string } {
  const module = { exports: {} as Record<string, unknown> };
  runInNewContext(embeddedLuaModule(), { module, exports: module.exports });
  return module.exports as never;
}

describe('src/store/lua-source.ts (read from disk)', () => {
  test('lists every .lua file under src/store/, relative to it', () => {
    expect(luaFiles()).toEqual(luaOnDisk().sort());
    expect(luaFiles()).toContain('lua/save.lua');
  });

  test('gives the text of a file, and refuses a path that names none', () => {
    expect(luaSource('lua/save.lua')).toBe(readFileSync(join(storeDir, 'lua', 'save.lua'), 'utf8'));
    expect(() => luaSource('lua/missing.lua')).toThrow('no Lua file "lua/missing.lua" under src/store/');
    expect(() => luaSource('../index.ts')).toThrow('no Lua file');
  });
});

describe('the generated module that replaces it in dist/ (tools/embed-lua.js)', () => {
  const built = builtModule();

  test('holds the same files with the same text', () => {
    expect(built.luaFiles()).toEqual(luaFiles());
    for (const file of luaFiles()) expect(built.luaSource(file)).toBe(luaSource(file));
  });

  test('refuses a path that names no file, as the disk reader does', () => {
    expect(() => built.luaSource('lua/missing.lua')).toThrow('no Lua file "lua/missing.lua" under src/store/');
  });
});

test('the function library is assembled through it, every entry script a function', () => {
  const library = functionLibrary();
  expect(library.functions.size).toBeGreaterThan(30);
  expect(library.source).toMatch(/^#!lua name=redisrecord_[0-9a-f]{8}\n/);
  expect(library.source).not.toMatch(/^--!include/m);
});

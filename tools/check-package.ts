// `npm run check:package`: packs redis-record as npm publishes it (prepack builds dist/) and checks the tarball:
// - it holds the JavaScript, the declarations and the Lua (inside dist/store/lua-source.js, the same text as
//   src/store/'s .lua files), and nothing that points at a file it lacks: no source map, no relative import of a
//   file it does not ship;
// - publint and @arethetypeswrong/cli (attw) find nothing to report.
// REDIS_RECORD_TARBALL=path checks a tarball packed before.
import { spawnSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join, relative, resolve } from 'path';
import { luaFiles, luaSource } from '../src/store/lua-source';
import { packTarball } from './pack-tarball';

const ROOT = join(__dirname, '..');
const REQUIRED = [
  'package.json',
  'README.md',
  'LICENSE',
  'dist/index.js',
  'dist/index.d.ts',
  'dist/admin.js',
  'dist/admin.d.ts',
  'dist/cli/main.js',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** What in the unpacked package is missing, shipped by mistake, or points at a file it lacks. */
function contentProblems(pkg: string): string[] {
  const files = filesUnder(pkg).map((file) => relative(pkg, file).split('\\').join('/'));
  const problems = REQUIRED.filter((file) => !files.includes(file)).map((file) => `${file} is missing`);
  for (const file of files) {
    if (!file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file)) problems.push(`${file} is shipped`);
    if (file.endsWith('.map') || file.endsWith('.lua') || file.endsWith('.ts') !== file.endsWith('.d.ts'))
      problems.push(`${file} is shipped`);
    if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
    const text = readFileSync(join(pkg, file), 'utf8');
    if (text.includes('sourceMappingURL')) problems.push(`${file} names a source map`);
    // relative require()s of the JS and imports of the declarations must find a shipped file
    const specifiers = [...text.matchAll(/(?:require\(|from |import\()\s*["'](\.{1,2}\/[^"']*)["']/g)].map((match) => match[1]);
    for (const specifier of specifiers) {
      const target = resolve(dirname(join(pkg, file)), specifier);
      const candidates = file.endsWith('.d.ts')
        ? [`${target}.d.ts`, join(target, 'index.d.ts')]
        : [`${target}.js`, join(target, 'index.js'), target];
      if (!candidates.some((candidate) => existsSync(candidate))) problems.push(`${file} imports ${specifier}, which is not shipped`);
    }
  }
  return problems;
}

/** The built Lua module must read no file and hold every .lua file of src/store/ with the same text. */
function luaProblems(pkg: string): string[] {
  const path = join(pkg, 'dist', 'store', 'lua-source.js');
  if (!existsSync(path)) return ['dist/store/lua-source.js is missing'];
  if (/\brequire\(/.test(readFileSync(path, 'utf8'))) return ['dist/store/lua-source.js requires a module: it should hold the Lua itself'];
  const built = require(path) as { luaFiles(): string[]; luaSource(file: string): string };
  if (built.luaFiles().join() !== luaFiles().join()) return [`dist/store/lua-source.js holds ${built.luaFiles().join(', ')}`];
  return luaFiles()
    .filter((file) => built.luaSource(file) !== luaSource(file))
    .map((file) => `dist/store/lua-source.js holds another text for ${file}`);
}

/** Runs a linter of node_modules/.bin on the tarball; its output, and whether it passed. */
function lint(tool: string, args: string[], clean: (output: string) => boolean): { output: string; passed: boolean } {
  const result = spawnSync(join(ROOT, 'node_modules', '.bin', tool), args, { cwd: ROOT, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  return { output, passed: result.status === 0 && clean(output) };
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'redis-record-package-'));
  try {
    const tarball = packTarball(work);
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', work], { encoding: 'utf8' });
    if (unpacked.status !== 0) throw new Error(`tar -xzf ${tarball}: ${unpacked.stderr}`);
    const pkg = join(work, 'package');
    const problems = [...contentProblems(pkg), ...luaProblems(pkg)];
    const files = filesUnder(pkg).length;
    console.log(`check:package: ${tarball}, ${files} files`);
    for (const problem of problems) console.log(`  ${problem}`);
    // publint exits 0 on suggestions too: the package passes with none at all
    const publint = lint('publint', ['run', tarball], (output) => /All good!/.test(output));
    const attw = lint('attw', ['--no-color', '--no-emoji', tarball], () => true);
    for (const [name, { output, passed }] of [
      ['publint', publint],
      ['attw', attw],
    ] as const) {
      console.log(`${name}: ${passed ? 'nothing to report' : 'problems'}`);
      if (!passed) console.log(output);
    }
    const failed = (problems.length > 0 ? 1 : 0) + (publint.passed ? 0 : 1) + (attw.passed ? 0 : 1);
    console.log(`package: ${3 - failed} passed, ${failed} failed`);
    if (failed > 0) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();

import { createHash } from 'crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'fs';
import { dirname, join, relative } from 'path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};

/**
 * Each file's JavaScript, kept by the hash of its path, its text, the compiler's version and options: a test
 * run transpiles src/ for many test files, and transpileModule costs tens of ms a file. Written under a
 * temporary name and renamed, so test files running at once never read a half-written entry.
 */
const CACHE = join(ROOT, 'node_modules', '.cache', 'redis-record-transpiled');
const CACHE_SALT = JSON.stringify([ts.version, COMPILER_OPTIONS]);

/** The JavaScript of `file` (whose text, read from disk by default, may be given). */
export function transpiled(file: string, source = readFileSync(file, 'utf8')): string {
  const key = createHash('sha256').update(CACHE_SALT).update(relative(ROOT, file)).update('\0').update(source).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const { outputText } = ts.transpileModule(source, { fileName: file, compilerOptions: COMPILER_OPTIONS });
  mkdirSync(CACHE, { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, outputText);
  renameSync(partial, cached);
  return outputText;
}

export interface TranspiledWorkers {
  /** The compiled path of a worker source file (given relative to the repository root, ending in .ts). */
  script(source: string): string;
  /** Deletes the compiled tree. */
  remove(): void;
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

/** Every TypeScript source under `from` transpiled to the same path under `to`, as `.js`. */
export function transpileTree(from: string, to: string): void {
  for (const file of sourcesUnder(from).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))) {
    const out = join(to, relative(from, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, transpiled(file));
  }
}

/**
 * src/ and the given worker folders compiled to JavaScript once (transpile only, like ts-jest's isolated
 * mode), so that each worker process costs a Node startup, not a TypeScript compiler load. The output goes
 * under node_modules/.cache so that its requires of 'redis' and friends resolve to the project's packages.
 * Worker sources must name every attribute's type (transpiling emits no reliable decorator type metadata).
 */
export function transpileWorkers(label: string, folders: readonly string[]): TranspiledWorkers {
  const dir = join(ROOT, 'node_modules', '.cache', `redis-record-workers-${label}`);
  const sources = [join(ROOT, 'src'), ...folders.map((folder) => join(ROOT, folder))]
    .flatMap(sourcesUnder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  for (const file of sources) {
    const out = join(dir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, transpiled(file));
  }
  cpSync(join(ROOT, 'src', 'store', 'lua'), join(dir, 'src', 'store', 'lua'), { recursive: true });
  return {
    script: (source) => join(dir, source).replace(/\.ts$/, '.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

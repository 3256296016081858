import { spawn } from 'child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { CHECK_MARK, docProgram, DocProgram } from './doc-programs';
import { docTypeErrors } from './doc-types';
import { transpiled, transpileTree } from './worker-processes/transpile';

/**
 * Runs guide pages the way their readers run them. Each page's program (doc-programs.ts) is compiled to a
 * file of its own, next to a node_modules/redis-record holding the library compiled to CommonJS, and run by
 * node in a process of its own, with REDIS_URL naming the server: the page connects by itself, and must
 * disconnect by itself, or Node keeps running and the run fails on its time limit. Both are transpiled file by
 * file (cached: worker-processes/transpile.ts), as esbuild or swc compile an application: the pages name the
 * types their attributes cannot take from decorator metadata, as the guide asks of such builds.
 */
export interface DocPages {
  /**
   * Each page's type errors, as "page.md:<line>: <message>". Under `npm test` none: `npm run typecheck` has
   * type-checked the pages with the project before the tests ran (tools/check-project.ts).
   */
  readonly errors: Map<string, string[]>;
  /** Each page's program. */
  readonly programs: Map<string, DocProgram>;
  /** Runs a page's program against `redisUrl`: what went wrong, as "page.md:<line>: ..." lines. */
  run(page: string, redisUrl: string): Promise<string[]>;
  /** Deletes the compiled files. */
  remove(): void;
}

/** How long a page may run: time for its waits (expiry), far less than a forgotten connection keeps it. */
const PAGE_LIMIT_MS = 120_000;

/**
 * Compiles the pages (each a directory and a path under it, which names the page in messages) that have
 * TypeScript blocks, and the library, into a directory of their own.
 */
export function compileDocPages(root: string, pages: ReadonlyArray<readonly [dir: string, page: string]>): DocPages {
  const programs = new Map<string, DocProgram>();
  for (const [dir, page] of pages) {
    const program = docProgram(dir, page);
    if (program) programs.set(page, program);
  }
  const typeChecked = process.env.npm_lifecycle_event === 'test';
  const typeErrors = typeChecked ? new Map<DocProgram, string[]>() : docTypeErrors(join(root, 'tsconfig.json'), [...programs.values()]);
  // under the project's node_modules, so that the library's dependencies resolve from there
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'redis-record-docs-'));
  const dist = join(dir, 'node_modules', 'redis-record', 'dist');
  transpileTree(join(root, 'src'), dist);
  copyFileSync(join(root, 'package.json'), join(dir, 'node_modules', 'redis-record', 'package.json'));
  // the Lua, under src/store, where the library reads it (store/lua-source.ts)
  cpSync(join(root, 'src', 'store'), join(dist, 'store'), { recursive: true, filter: (path) => !path.endsWith('.ts') });
  const errors = new Map<string, string[]>();
  for (const [page, program] of programs) {
    errors.set(page, typeErrors.get(program) ?? []);
    write(join(dir, `${page}.js`), transpiled(program.path, program.text));
  }
  return {
    errors,
    programs,
    run: (page, redisUrl) => runPage(dir, page, redisUrl),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function runPage(dir: string, page: string, redisUrl: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, `${page}.js`)], {
      cwd: dir,
      env: { ...process.env, REDIS_URL: redisUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, PAGE_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const checks = stderr
        .split('\n')
        .filter((line) => line.startsWith(CHECK_MARK))
        .map((line) => JSON.parse(line.slice(CHECK_MARK.length)) as { line: number; message: string })
        .map((check) => `${page}:${check.line}: ${check.message}`);
      const rest = stderr
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith(CHECK_MARK))
        .slice(0, 20)
        .join('\n');
      if (timedOut) {
        checks.push(`${page}: still running after ${PAGE_LIMIT_MS / 1000} s: an open connection keeps Node running (no disconnect()?)`);
      } else if (code !== 0 && checks.length === 0) checks.push(`${page}: exited with code ${code}: ${rest}`);
      resolve(checks);
    });
  });
}

/** The `prefix` the page's first block connects with, or undefined. */
export function connectedPrefix(program: DocProgram): string | undefined {
  return /\bprefix: '([^']+)'/.exec(program.blocks[0] ?? '')?.[1];
}

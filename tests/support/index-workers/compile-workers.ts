import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { dirname, join, relative } from 'path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * src/ and this folder compiled to JavaScript once (transpile only), so that each worker process costs a Node
 * startup, not a TypeScript compiler load. The output goes under node_modules/.cache so that its requires of
 * 'redis' and friends resolve to the project's packages. Returns the compiled worker's path and a cleanup.
 */
export function compileWorkers(label: string): { script: string; remove: () => void } {
  const dir = join(ROOT, 'node_modules', '.cache', `redis-record-index-workers-${label}`);
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  const sources = [...walk(join(ROOT, 'src')), ...walk(__dirname)].filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  for (const file of sources) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        esModuleInterop: true,
      },
    });
    const out = join(dir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  cpSync(join(ROOT, 'src', 'scripts', 'lua'), join(dir, 'src', 'scripts', 'lua'), { recursive: true });
  return {
    script: join(dir, relative(ROOT, join(__dirname, 'index-worker.js'))),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { dirname, join, relative } from 'path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');

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
  cpSync(join(ROOT, 'src', 'store', 'lua'), join(dir, 'src', 'store', 'lua'), { recursive: true });
  return {
    script: (source) => join(dir, source).replace(/\.ts$/, '.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

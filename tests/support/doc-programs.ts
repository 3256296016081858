import { readFileSync } from 'fs';
import { join } from 'path';
import * as ts from 'typescript';

/**
 * The TypeScript blocks of a guide page, made into one program, to type-check against the library's source
 * and to run.
 *
 * The guide's convention (docs/index.md, "Running the examples"): a page's blocks are top-level module code
 * with `await`, and later blocks build on the earlier ones (the models, the connection, the objects made).
 * So a page becomes one module: the imports of every block, merged, then the other statements of the blocks,
 * in order, in the body of one async function, `page()`. Every export of 'redis-record' is imported too, so
 * that a block excerpted from a bigger program (docs/examples.md) need not repeat its imports; what is
 * checked is that every call, option and type the page shows exists and fits. `export` in front of a
 * declaration is dropped (it cannot stand inside a function).
 *
 * The runnable form (`runnable: true`) reads the page's annotations, each on a statement of one line:
 *   `expression; // => value`        the expression's value must equal `value` (words after two spaces are
 *                                    commentary); `console.log(x); // => value` says it of x
 *   `statement; // throws SomeError` the statement must throw (or reject with) an error of that class, and
 *                                    with `: message` after the class, one whose message contains it
 *   `statement;` then `// SomeError: message` on the next comment lines (continued on lines indented past
 *                                    the `//`): the same
 *   `main();`                        a page written as `async function main() { ... } main();` is awaited
 * and every `redis://` or `rediss://` string literal becomes `redisUrl`, the server the tests run on. The
 * three names are declared here and given by the runner (tests/support/doc-runner.ts).
 */
export interface DocProgram {
  readonly page: string;
  /** The module's path: beside the page, so that packages resolve from the project's node_modules. */
  readonly path: string;
  readonly text: string;
  /** The page's line of each of the module's lines that came from a block (0 for those made here). */
  readonly pageLines: readonly number[];
}

const FENCE = /^```ts\s*\n([\s\S]*?)^```/gm;

/** The guide's pages whose code runs on a Redis Cluster (tests/cluster/docs-code.test.ts), not one server. */
export const CLUSTER_PAGES: readonly string[] = ['cluster.md'];

const RUNTIME_DECLARATIONS = [
  'declare const redisUrl: string;',
  'declare function expectValue(line: number, actual: unknown, expected: unknown): void;',
  'declare function expectThrow(line: number, errorName: string, message: string, run: () => unknown): Promise<void>;',
];

/** The program of one page of `dir`, or undefined when it has no TypeScript block. */
export function docProgram(dir: string, page: string, libraryExports: readonly string[], runnable = false): DocProgram | undefined {
  const markdown = readFileSync(join(dir, page), 'utf8');
  const named = new Map<string, Set<string>>([['redis-record', new Set(libraryExports)]]);
  const sideEffects: string[] = [];
  const body: Array<{ line: string; pageLine: number }> = [];
  for (const fence of markdown.matchAll(FENCE)) {
    const firstLine = markdown.slice(0, fence.index).split('\n').length + 1;
    const imported = mergeImports(page, fence[1], named, sideEffects);
    const lines = fence[1].split('\n');
    lines.forEach((line, at) => {
      if (imported.has(at)) return;
      const code = line.replace(/^export\s+(?=class|function|async|const|let|interface|type|enum)/, '');
      body.push({ line: runnable ? runnableLine(code, firstLine + at, announcedError(lines, at + 1)) : code, pageLine: firstLine + at });
    });
  }
  if (body.length === 0) return undefined;
  const head = [
    ...sideEffects.map((from) => `import '${from}';`),
    ...[...named].map(([from, names]) => `import { ${[...names].join(', ')} } from '${from}';`),
    ...(runnable ? RUNTIME_DECLARATIONS : []),
    'export async function page(): Promise<void> {',
  ];
  const lines = [...head, ...body.map((entry) => `  ${entry.line}`), '}', ''];
  const pageLines = [...head.map(() => 0), ...body.map((entry) => entry.pageLine), 0, 0];
  const path = join(dir, `${page}.${runnable ? 'run' : 'check'}.ts`);
  return { page, path, text: lines.join('\n'), pageLines };
}

/** Adds the block's imports to `named` and `sideEffects`; returns the block's lines they took. */
function mergeImports(page: string, block: string, named: Map<string, Set<string>>, sideEffects: string[]): Set<number> {
  const source = ts.createSourceFile('block.ts', block, ts.ScriptTarget.ES2022, true);
  const taken = new Set<number>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    if (!clause) {
      if (!sideEffects.includes(from)) sideEffects.push(from);
    } else if (bindings && ts.isNamedImports(bindings) && !clause.name) {
      const names = named.get(from) ?? new Set<string>();
      for (const element of bindings.elements) names.add(element.getText(source));
      named.set(from, names);
    } else {
      throw new Error(`${page}: only named and side-effect imports are merged: ${statement.getText(source)}`);
    }
    const start = source.getLineAndCharacterOfPosition(statement.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(statement.getEnd()).line;
    for (let line = start; line <= end; line++) taken.add(line);
  }
  return taken;
}

/** A statement on one line (not a declaration), with the comment after it. */
const STATEMENT = /^(\s*)(?!(?:const|let|var|return|throw)\s)([^/]*?);\s*(?:\/\/ ?(.*))?$/;
const EXPECTS_VALUE = /^=> (.+?)(?:\s{2,}.*)?$/;
const EXPECTS_THROW = /^throws (\w+)(?::\s*(.*))?$/;
/** A comment line that names the error the statement above it throws, and its message. */
const ERROR_LINE = /^\s*\/\/ (\w+Error): (.*)$/;

/** The error announced by the comment lines from `at` on: its class and message, or undefined. */
function announcedError(lines: readonly string[], at: number): { name: string; message: string } | undefined {
  const first = ERROR_LINE.exec(lines[at] ?? '');
  if (!first) return undefined;
  let message = first[2];
  // a message continued on the next comment lines, indented past the `//`
  for (let next = at + 1; /^\s*\/\/\s{2,}\S/.test(lines[next] ?? ''); next++) message += ` ${lines[next].replace(/^\s*\/\/\s+/, '')}`;
  return { name: first[1], message };
}

function runnableLine(line: string, pageLine: number, error: { name: string; message: string } | undefined): string {
  const code = line.replace(/(['"])rediss?:\/\/[^'"]*\1/g, 'redisUrl');
  if (/^main\(\);\s*$/.test(code)) return 'await main();';
  const statement = STATEMENT.exec(code);
  if (!statement) return code;
  const [, indent, expression, comment = ''] = statement;
  const thrown = EXPECTS_THROW.exec(comment);
  const announced = thrown ? { name: thrown[1], message: thrown[2] ?? '' } : error;
  if (announced) {
    return `${indent}await expectThrow(${pageLine}, ${JSON.stringify(announced.name)}, ${JSON.stringify(announced.message)}, async () => { ${expression}; });`;
  }
  const valued = EXPECTS_VALUE.exec(comment);
  // `console.log(x); // => v` says what x is (one argument)
  const shown = /^console\.log\((.*)\)$/.exec(expression)?.[1] ?? expression;
  if (valued) return `${indent}expectValue(${pageLine}, await (${shown}), ${valued[1]});`;
  return code;
}

/**
 * The names 'redis-record' exports (values and types), read from its entry file's `export { ... }` and
 * `export type { ... }` lists: its text alone, not a program of the whole library (compileDocs builds that).
 */
export function libraryExports(indexFile: string): string[] {
  const source = ts.createSourceFile(indexFile, readFileSync(indexFile, 'utf8'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${indexFile}: only export { ... } lists are read, not export *`);
    for (const element of clause.elements) names.push(element.name.text);
  }
  return names;
}

export interface CompiledDocs {
  /** Each program's errors, as "page.md:<line>: <message>" (the line of the page the statement came from). */
  readonly errors: Map<DocProgram, string[]>;
  /** Each program as CommonJS, emitted with the type information (decorator metadata needs it). */
  readonly javascript: Map<DocProgram, string>;
}

/**
 * Type-checks and compiles the programs together, with the project's compiler options (tsconfig.json),
 * without writing a file: each program is served from memory at its path, and only the programs are emitted.
 */
export function compileDocs(tsconfig: string, programs: readonly DocProgram[]): CompiledDocs {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  // a page may import a name it does not use in the part shown
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, noUnusedLocals: false, declaration: false, sourceMap: false };
  const byPath = new Map(programs.map((program) => [program.path, program]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const program = byPath.get(name);
    return program ? ts.createSourceFile(name, program.text, language) : getSourceFile(name, language, ...rest);
  };
  host.fileExists = (name) => byPath.has(name) || fileExists(name);
  host.readFile = (name) => byPath.get(name)?.text ?? readFile(name);
  const compiled = ts.createProgram([...byPath.keys()], options, host);
  // the programs' own diagnostics only: the library's are `npm run typecheck`'s
  const errors = new Map<DocProgram, string[]>();
  for (const program of programs) {
    const diagnostics = ts.getPreEmitDiagnostics(compiled, compiled.getSourceFile(program.path));
    errors.set(
      program,
      diagnostics.map((diagnostic) => {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        // a global diagnostic (compiler options) has no file
        if (!diagnostic.file || diagnostic.start === undefined) return `${program.page}: ${message}`;
        const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
        return `${program.page}:${program.pageLines[line] || '?'}: ${message}`;
      }),
    );
  }
  const javascript = new Map<DocProgram, string>();
  for (const program of programs) {
    compiled.emit(compiled.getSourceFile(program.path), (name, text) => {
      if (name.endsWith('.js')) javascript.set(program, text);
    });
  }
  return { errors, javascript };
}

import { readFileSync } from 'fs';
import { join } from 'path';
import * as ts from 'typescript';

/**
 * The TypeScript blocks of a guide page, made into one program to type-check against the library's source.
 *
 * The guide's convention (docs/index.md, "Running the examples"): a page's blocks are top-level module code
 * with `await`, and later blocks build on the earlier ones (the models, the connection, the objects made).
 * So a page becomes one module: the imports of every block, merged, then the other statements of the blocks,
 * in order, in the body of one async function. Every export of 'redis-record' is imported too, so that a
 * block excerpted from a bigger program (docs/examples.md) need not repeat its imports; what is checked is
 * that every call, option and type the page shows exists and fits. `export` in front of a declaration is
 * dropped (it cannot stand inside a function).
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

/** The program of one page of `docsDir`, or undefined when it has no TypeScript block. */
export function docProgram(docsDir: string, page: string, libraryExports: readonly string[]): DocProgram | undefined {
  const markdown = readFileSync(join(docsDir, page), 'utf8');
  const named = new Map<string, Set<string>>([['redis-record', new Set(libraryExports)]]);
  const sideEffects: string[] = [];
  const body: Array<{ line: string; pageLine: number }> = [];
  for (const fence of markdown.matchAll(FENCE)) {
    const firstLine = markdown.slice(0, fence.index).split('\n').length + 1;
    const block = ts.createSourceFile('block.ts', fence[1], ts.ScriptTarget.ES2022, true);
    const imported = new Set<number>();
    for (const statement of block.statements) {
      if (!ts.isImportDeclaration(statement)) continue;
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      const bindings = statement.importClause?.namedBindings;
      if (!statement.importClause) {
        if (!sideEffects.includes(from)) sideEffects.push(from);
      } else if (bindings && ts.isNamedImports(bindings) && !statement.importClause.name) {
        const names = named.get(from) ?? new Set<string>();
        for (const element of bindings.elements) names.add(element.getText(block));
        named.set(from, names);
      } else {
        throw new Error(`${page}: only named and side-effect imports are merged: ${statement.getText(block)}`);
      }
      const start = block.getLineAndCharacterOfPosition(statement.getStart(block)).line;
      const end = block.getLineAndCharacterOfPosition(statement.getEnd()).line;
      for (let line = start; line <= end; line++) imported.add(line);
    }
    fence[1].split('\n').forEach((line, at) => {
      if (!imported.has(at)) body.push({ line: line.replace(/^export\s+(?=class|function|async|const|let|interface|type|enum)/, ''), pageLine: firstLine + at });
    });
  }
  if (body.length === 0) return undefined;
  const head = [
    ...sideEffects.map((from) => `import '${from}';`),
    ...[...named].map(([from, names]) => `import { ${[...names].join(', ')} } from '${from}';`),
    'export async function main(): Promise<void> {',
  ];
  const lines = [...head, ...body.map((entry) => `  ${entry.line}`), '}', ''];
  const pageLines = [...head.map(() => 0), ...body.map((entry) => entry.pageLine), 0, 0];
  return { page, path: join(docsDir, `${page}.program.ts`), text: lines.join('\n'), pageLines };
}

/** The names 'redis-record' exports (values and types), read from its entry file. */
export function libraryExports(indexFile: string): string[] {
  const program = ts.createProgram([indexFile], { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(indexFile)!)!;
  return checker.getExportsOfModule(symbol).map((exported) => exported.name);
}

/**
 * Type-checks the programs together, with the project's compiler options (tsconfig.json), without writing a
 * file: each program is served from memory at its path. Resolves to each page's errors, as
 * "page.md:<line>: <message>" (the line of the page the statement came from).
 */
export function typeErrors(tsconfig: string, programs: readonly DocProgram[]): Map<string, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  // a page may import a name it does not use in the part shown (the imports of all pages are checked as a whole)
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false };
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
  const errors = new Map<string, string[]>(programs.map((program) => [program.page, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(compiled)) {
    const program = diagnostic.file && byPath.get(diagnostic.file.fileName);
    if (!program || diagnostic.start === undefined) continue;
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    errors.get(program.page)!.push(`${program.page}:${program.pageLines[line] || '?'}: ${message}`);
  }
  return errors;
}

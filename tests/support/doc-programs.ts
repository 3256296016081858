import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import * as ts from 'typescript';

/**
 * The TypeScript blocks of a guide page, made into the program a reader gets by copying them into one file.
 *
 * The guide's convention (docs/index.md, "Running the examples"): a page's blocks are module code with
 * top-level `await`, run in order; the first block imports what the page uses and connects, the last one
 * disconnects. So the program is the blocks' import declarations, as written and in order, then the other
 * statements of the blocks, in order, in the body of one async function that the module calls: the form a
 * CommonJS project gives such code. Nothing is added to the page's imports: a name the page uses without
 * importing it fails to compile, as it would for the reader. `export` in front of a declaration is dropped
 * (it cannot stand inside a function).
 *
 * The annotations, each on a statement of one line, become checks:
 *   `expression; // => value`        the expression's value must equal `value` (words after two spaces are
 *                                    commentary); `console.log(x); // => value` says it of x
 *   `statement; // throws SomeError` the statement must throw (or reject with) an error of that class, and
 *                                    with `: message` after the class, one whose message contains it; the
 *                                    program then goes on, as the page does
 *   `statement;` then `// SomeError: message` on the next comment lines (continued on lines indented past
 *                                    the `//`): the same
 * A check that fails writes one line to stderr, `DOC_CHECK` and a JSON { line, message } (the page's line), and
 * sets the exit code; the functions that do it are declared at the end of the program.
 */
export interface DocProgram {
  readonly page: string;
  /** The module's path: beside the page, so that packages resolve from the project's node_modules. */
  readonly path: string;
  readonly text: string;
  /** The page's line of each of the module's lines that came from a block (0 for those made here). */
  readonly pageLines: readonly number[];
  /** The TypeScript blocks as written, in order. */
  readonly blocks: readonly string[];
}

/** What a failed check writes at the start of its line on stderr. */
export const CHECK_MARK = 'DOC_CHECK ';

const FENCE = /^```ts\s*\n([\s\S]*?)^```/gm;

/** The guide's pages whose code runs on a Redis Cluster (tests/cluster/docs-code.test.ts), not one server. */
export const CLUSTER_PAGES: readonly string[] = ['cluster.md'];

/** The program's own functions: the checks the annotations become. */
const CHECKS = `
function docFailed(line: number, message: string): void {
  process.exitCode = 1;
  process.stderr.write('\\n${CHECK_MARK}' + JSON.stringify({ line, message }) + '\\n');
}
function docPlain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value) ?? 'null');
}
function docShow(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
function docSqueezed(text: string): string {
  return text.replace(/\\s+/g, ' ').trim();
}
function expectValue(line: number, actual: unknown, expected: unknown): void {
  const { isDeepStrictEqual } = require('util') as typeof import('util');
  if (!isDeepStrictEqual(docPlain(actual), docPlain(expected))) docFailed(line, 'got ' + docShow(actual) + ', the page says ' + docShow(expected));
}
async function expectThrow(line: number, errorName: string, message: string, run: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    const name = (error as { constructor?: { name?: string } })?.constructor?.name;
    const text = String((error as Error)?.message);
    if (name !== errorName || !docSqueezed(text).includes(docSqueezed(message))) {
      docFailed(line, 'threw ' + name + ': ' + text + '; the page says ' + errorName + (message ? ': ' + message : ''));
    }
    return;
  }
  docFailed(line, 'threw nothing, the page says ' + errorName);
}
`;

/** The guide's pages and the README, each as its directory and its path under it (which names it in messages). */
export function guidePages(root: string): Array<[dir: string, page: string]> {
  const docs = join(root, 'docs');
  const under = (sub: string): string[] =>
    readdirSync(join(docs, sub), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(sub, entry.name)) : entry.name.endsWith('.md') ? [join(sub, entry.name)] : [],
    );
  return [...under('').map((page): [string, string] => [docs, page]), [root, 'README.md']];
}

/** The TypeScript blocks of a Markdown file, with the line of the page each starts on. */
export function typeScriptBlocks(markdown: string): Array<{ code: string; firstLine: number }> {
  return [...markdown.matchAll(FENCE)].map((fence) => ({
    code: fence[1],
    firstLine: markdown.slice(0, fence.index).split('\n').length + 1,
  }));
}

/** The program of one page of `dir`, or undefined when it has no TypeScript block. */
export function docProgram(dir: string, page: string): DocProgram | undefined {
  const blocks = typeScriptBlocks(readFileSync(join(dir, page), 'utf8'));
  if (blocks.length === 0) return undefined;
  const imports: Array<{ line: string; pageLine: number }> = [];
  const body: Array<{ line: string; pageLine: number }> = [];
  for (const { code, firstLine } of blocks) {
    const taken = importLines(code);
    const lines = code.split('\n');
    lines.forEach((line, at) => {
      const entry = { pageLine: firstLine + at };
      if (taken.has(at)) return imports.push({ ...entry, line });
      const statement = line.replace(/^export\s+(?=class|function|async|const|let|interface|type|enum)/, '');
      body.push({ ...entry, line: checkedLine(statement, firstLine + at, announcedError(lines, at + 1)) });
    });
  }
  const start = 'async function page(): Promise<void> {';
  const end = ['}', '', 'void page();', ...CHECKS.split('\n')];
  const lines = [...imports.map((entry) => entry.line), start, ...body.map((entry) => `  ${entry.line}`), ...end];
  const pageLines = [...imports.map((entry) => entry.pageLine), 0, ...body.map((entry) => entry.pageLine), ...end.map(() => 0)];
  return { page, path: join(dir, `${page}.run.ts`), text: lines.join('\n'), pageLines, blocks: blocks.map((block) => block.code) };
}

/** The lines of a block that its import declarations take. */
function importLines(block: string): Set<number> {
  const source = ts.createSourceFile('block.ts', block, ts.ScriptTarget.ES2022, true);
  const taken = new Set<number>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
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

function checkedLine(code: string, pageLine: number, error: { name: string; message: string } | undefined): string {
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

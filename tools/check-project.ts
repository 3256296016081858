import { join } from 'path';
import * as ts from 'typescript';
import { docProgram, DocProgram, guidePages } from '../tests/support/doc-programs';
import { docsHost, pageErrors, projectConfig } from '../tests/support/doc-types';

/**
 * `tsc -p tsconfig.json --noEmit`, with the guide's pages in the same program: each page's TypeScript blocks as
 * the one program a reader gets by copying them (tests/support/doc-programs.ts), type-checked against the
 * library, so that the docs tests need not build a TypeScript program of their own. Prints the project's
 * diagnostics as tsc does and the pages' as "page.md:<line>: <message>"; exits 1 on any.
 */
const root = join(__dirname, '..');
const config = projectConfig(join(root, 'tsconfig.json'));
const pages = guidePages(root)
  .map(([dir, page]) => docProgram(dir, page))
  .filter((program): program is DocProgram => program !== undefined);
const program = ts.createProgram({
  rootNames: [...config.fileNames, ...pages.map((page) => page.path)],
  options: { ...config.options, noEmit: true },
  host: docsHost(config.options, pages),
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
});
const pagePaths = new Set(pages.map((page) => page.path));
const project = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program
    .getSourceFiles()
    .flatMap((file) =>
      pagePaths.has(file.fileName) ? [] : [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)],
    ),
];
const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
process.stdout.write(ts.formatDiagnostics(project, formatHost));
const docErrors = pages.flatMap((page) => pageErrors(program, page).map((error) => `docs: ${error}\n`));
process.stdout.write(docErrors.join(''));
process.exitCode = project.length + docErrors.length > 0 ? 1 : 0;

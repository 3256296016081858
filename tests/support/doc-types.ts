import * as ts from 'typescript';
import type { DocProgram } from './doc-programs';

/**
 * Type-checking the guide's programs (doc-programs.ts) with the project's compiler options, each served from
 * memory at its path beside its page. `npm run typecheck` checks them in the project's own program
 * (tools/check-project.ts); a docs test run by itself checks them here.
 */

/** What TypeScript reports of a name declared and not used: a page may name a value it does not use again. */
const UNUSED = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

/** The project's compiler options, from `tsconfig`, and its files. */
export function projectConfig(tsconfig: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return parsed;
}

/** A compiler host that serves `programs` from memory at their paths, and every other file from disk. */
export function docsHost(options: ts.CompilerOptions, programs: readonly DocProgram[]): ts.CompilerHost {
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
  return host;
}

/** The errors of one page's program in `compiled`, as "page.md:<line>: <message>" (the page's line). */
export function pageErrors(compiled: ts.Program, program: DocProgram): string[] {
  return ts
    .getPreEmitDiagnostics(compiled, compiled.getSourceFile(program.path))
    .filter((diagnostic) => !UNUSED.has(diagnostic.code))
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      // a global diagnostic (compiler options) has no file
      if (!diagnostic.file || diagnostic.start === undefined) return `${program.page}: ${message}`;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${program.page}:${program.pageLines[line] || '?'}: ${message}`;
    });
}

/** Each program's errors, type-checked together with the library they import (tsconfig's `paths`). */
export function docTypeErrors(tsconfig: string, programs: readonly DocProgram[]): Map<DocProgram, string[]> {
  const { options } = projectConfig(tsconfig);
  const compiled = ts.createProgram(
    programs.map((program) => program.path),
    { ...options, noEmit: true },
    docsHost(options, programs),
  );
  return new Map(programs.map((program) => [program, pageErrors(compiled, program)]));
}

/**
 * Drops the library functions a script never calls. Redis runs a script's whole body on every EVALSHA, so each
 * `local function` it defines is a closure built again on every call; a script that inlines whole libraries
 * (`--!include`) pays for all of them unless the unused ones go.
 *
 * The libraries keep to one layout, which this relies on: at the top level only `local function name(...)`
 * blocks, each closed by an `end` alone on its line at column 0, with their comment lines just above them. A
 * function is kept when the script's own code, or a kept function, names it; over-keeping (a name in a trailing
 * comment) is harmless, and a local function cannot be used before its definition, so order is preserved.
 */
export function pruneUnusedFunctions(source: string): string {
  const segments = splitSegments(source);
  const byName = new Map<string, Segment>();
  for (const segment of segments) if (segment.name !== undefined) byName.set(segment.name, segment);

  const kept = new Set<string>();
  const visit = (text: string) => {
    for (const name of identifiers(text)) {
      if (kept.has(name) || !byName.has(name)) continue;
      kept.add(name);
      visit(byName.get(name)!.text);
    }
  };
  for (const segment of segments) if (segment.name === undefined) visit(segment.text);
  return segments
    .filter((segment) => segment.name === undefined || kept.has(segment.name))
    .map((segment) => segment.text)
    .join('\n');
}

interface Segment {
  /** The function a block defines; undefined for the script's own code (and loose comments). */
  readonly name?: string;
  readonly text: string;
}

const FUNCTION_START = /^local function ([A-Za-z_]\w*)\s*\(/;
const COMMENT_LINE = /^\s*--/;

function splitSegments(source: string): Segment[] {
  const lines = source.split('\n');
  const segments: Segment[] = [];
  let comments: string[] = [];
  let code: string[] = [];
  const flushCode = () => {
    if (code.length > 0) segments.push({ text: code.join('\n') });
    code = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const start = FUNCTION_START.exec(line);
    if (start) {
      flushCode();
      const block = [...comments, line];
      comments = [];
      while (++i < lines.length && lines[i] !== 'end') block.push(lines[i]);
      if (i >= lines.length) throw new Error(`local function ${start[1]} has no closing 'end' at column 0`);
      block.push('end');
      segments.push({ name: start[1], text: block.join('\n') });
    } else if (COMMENT_LINE.test(line)) {
      comments.push(line);
    } else {
      code.push(...comments, line);
      comments = [];
    }
  }
  code.push(...comments);
  flushCode();
  return segments;
}

/** The names a piece of Lua code mentions, outside its whole-line comments. */
function identifiers(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (COMMENT_LINE.test(line)) continue;
    for (const match of line.matchAll(/[A-Za-z_]\w*/g)) names.add(match[0]);
  }
  return names;
}

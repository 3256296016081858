import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

/**
 * The write history a fault scenario's Redis kept in its append-only file, read back to explain a violation:
 * every write Redis acknowledged since it started (AOF `always`), as it will replay them after a restart. Redis 7
 * keeps it in `<dir>/appendonlydir`: a base file (empty here: the scenario never rewrites the AOF) and the
 * incremental files named in the manifest, in order. Each holds commands as RESP arrays; a script's writes
 * and a client's MULTI appear as MULTI ... EXEC blocks, kept together here as one step.
 */

/** One step of the history: the commands of one MULTI ... EXEC block, or one command alone. */
export type AofStep = string[][];

/** An object of a model: a step names it when one of its commands' keys is the model's and names the id. */
export interface AofTarget {
  readonly model: string;
  readonly id: string;
}

/**
 * The steps that name one of the objects, the last `limit`: a command naming its hash, memo or lock
 * (`...:<Model>:obj:<id>`), or a command on a key of its model with the id as an argument (an `all`, index or
 * unique entry; a lex index's member holds `\0\0` and ends with the id). A query's temporary keys (`tmp:`)
 * are left out: their numbers are not ids.
 */
export function aofStepsNaming(dataDir: string, targets: readonly AofTarget[], limit = 40): AofStep[] {
  const names = (command: string[]) =>
    targets.some(({ model, id }) => {
      const ofModel = `:${model}:`;
      return (
        command.slice(1).some((arg) => arg.endsWith(`${ofModel}obj:${id}`) || arg.endsWith(`${ofModel}memo:${id}`)) ||
        (command[1]?.includes(ofModel) &&
          !command[1].includes(`${ofModel}tmp:`) &&
          command.slice(2).some((arg) => arg === id || (arg.includes('\0\0') && arg.endsWith(id))))
      );
    });
  return readAofSteps(dataDir)
    .filter((step) => step.some(names))
    .slice(-limit);
}

/** A step as one line per command, each argument cut to `width` characters. */
export function describeStep(step: AofStep, width = 60): string {
  const cut = (arg: string) => (arg.length > width ? `${arg.slice(0, width)}...` : arg);
  return step.map((command) => command.map(cut).join(' ')).join(' | ');
}

/** The manifest of the AOF Redis 7 keeps under `dataDir` (`appendonlydir/<name>.manifest`), or undefined. */
export function aofManifest(dataDir: string): string | undefined {
  const dir = join(dataDir, 'appendonlydir');
  const manifest = existsSync(dir) ? readdirSync(dir).find((name) => name.endsWith('.manifest')) : undefined;
  return manifest && join(dir, manifest);
}

/** The incremental files the manifest names, in order (the base file is empty here: no rewrite ever runs). */
export function aofIncrFiles(dataDir: string): string[] {
  const manifest = aofManifest(dataDir);
  if (!manifest) return [];
  return readFileSync(manifest, 'utf8')
    .split('\n')
    .map((line) => /^file (\S+) seq \d+ type i/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => join(dirname(manifest), name));
}

export function readAofSteps(dataDir: string): AofStep[] {
  const steps: AofStep[] = [];
  for (const file of aofIncrFiles(dataDir)) {
    let open: AofStep | undefined;
    for (const { args } of aofCommands(readFileSync(file))) {
      const name = args[0]?.toUpperCase();
      if (name === 'MULTI') open = [];
      else if (name === 'EXEC' && open) {
        steps.push(open);
        open = undefined;
      } else if (open) open.push(args);
      else if (name !== 'SELECT') steps.push([args]);
    }
  }
  return steps;
}

/**
 * The RESP arrays of an AOF file, each with the offset just past it; a truncated tail (a write cut by the kill)
 * ends the list.
 */
export function aofCommands(data: Buffer): Array<{ args: string[]; end: number }> {
  const commands: Array<{ args: string[]; end: number }> = [];
  let at = 0;
  const line = (): string | undefined => {
    const end = data.indexOf('\r\n', at);
    if (end < 0) return undefined;
    const text = data.toString('latin1', at, end);
    at = end + 2;
    return text;
  };
  while (at < data.length) {
    const header = line();
    if (header === undefined || header[0] !== '*') break;
    const count = Number(header.slice(1));
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const size = line();
      if (size === undefined || size[0] !== '$') return commands;
      const length = Number(size.slice(1));
      if (at + length + 2 > data.length) return commands;
      args.push(data.toString('utf8', at, at + length));
      at += length + 2;
    }
    commands.push({ args, end: at });
  }
  return commands;
}

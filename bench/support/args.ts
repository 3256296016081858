import { mkdirSync, writeFileSync } from 'fs';
import { dirname, resolve } from 'path';

/** `--name value`, `--name=value`, a bare `--name` ('true'), or the environment variable. */
export function option(name: string, envName: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    if (arg === `--${name}`) return args[i + 1] !== undefined && !args[i + 1].startsWith('--') ? args[i + 1] : 'true';
  }
  return process.env[envName];
}

/** A positive number option (`fallback` when absent). */
export function positiveNumber(name: string, envName: string, fallback: number): number {
  return numberOption(name, envName, fallback, (value) => value > 0, 'a positive number');
}

/** A number option of 0 or more (`fallback` when absent). */
export function nonNegativeNumber(name: string, envName: string, fallback: number): number {
  return numberOption(name, envName, fallback, (value) => value >= 0, 'a number of 0 or more');
}

function numberOption(name: string, envName: string, fallback: number, allowed: (value: number) => boolean, what: string): number {
  const raw = option(name, envName);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !allowed(value)) throw new Error(`--${name} must be ${what}, got ${raw}`);
  return value;
}

/** A positive integer option (`fallback` when absent). */
export function positiveInteger(name: string, envName: string, fallback: number): number {
  const raw = option(name, envName);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return value;
}

/** The file named by `--json [file]` (or BENCH_JSON); a bare `--json` picks bench/results/<benchmark>-<time>.json. */
export function jsonFileOption(benchmark: string): string | undefined {
  const value = option('json', 'BENCH_JSON');
  return value === undefined ? undefined : value === 'true' ? `bench/results/${benchmark}-${Date.now()}.json` : value;
}

/** Writes `report` as indented JSON to `file` (creating its folder); returns the absolute path. */
export function writeJsonReport(file: string, report: object): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
  return path;
}

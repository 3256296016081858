import { spawn } from 'child_process';
import { join } from 'path';
import type { TranspiledWorkers } from '../support/worker-processes/transpile';

export interface BenchRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a benchmark script of `compiled` (its source path, e.g. 'bench/all.ts') with `args` in a process of its
 * own, without REDIS_URL: a benchmark starts its own private redis-server, never the tests' one. Killed after
 * `limitMs` (a set amount of work, slower when the machine is loaded).
 */
export async function runBenchScript(
  compiled: TranspiledWorkers,
  script: string,
  args: readonly string[],
  limitMs: number,
): Promise<BenchRun> {
  const env = { ...process.env };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [compiled.script(script), ...args], {
    cwd: join(__dirname, '..', '..'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stdout, stderr };
}

import { fork } from 'child_process';
import { extname, join } from 'path';

/**
 * Runs bench/server-cpu.ts with `--n n` in a process of its own (it connects redis-record to a redis-server it
 * starts, where the suite's process is connected to the suite's), its output printed as it comes. Run from the
 * TypeScript sources it goes through ts-node as this process does; from a compiled copy, the compiled script.
 */
export function runServerCpu(n: number): Promise<void> {
  const compiled = extname(__filename) === '.js';
  const child = fork(join(__dirname, '..', `server-cpu${extname(__filename)}`), ['--n', String(n)], {
    execArgv: compiled ? [] : ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`bench/server-cpu.ts ended with ${signal ?? `exit code ${code}`}`)),
    );
  });
}

import { spawn } from 'child_process';
import { transpileWorkers, TranspiledWorkers } from '../support/worker-processes/transpile';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Cli {
  /** Runs `redis-record ...args` (with `--url` of the test Redis unless given) as a child process. */
  run(args: readonly string[], options?: { url?: string | null; timeoutMs?: number }): Promise<CliRun>;
  /** Runs it with --json and parses stdout. */
  json<T = any>(args: readonly string[], options?: { url?: string | null }): Promise<CliRun & { data: T }>;
}

/**
 * The command-line tool for a test file: src/ transpiled once before its tests (a Node start per run, no
 * TypeScript compiler load), removed afterwards. stderr is a pipe, not a TTY: no progress bar.
 */
export function useCli(label: string): Cli {
  let compiled: TranspiledWorkers | undefined;
  beforeAll(() => {
    compiled = transpileWorkers(`cli-${label}`, []);
  });
  afterAll(() => compiled?.remove());
  const run: Cli['run'] = (args, options = {}) => {
    const url = options.url === undefined ? process.env.REDIS_URL! : options.url;
    const full = url === null ? [...args] : [...args, '--url', url];
    const env = { ...process.env };
    delete env.REDIS_RECORD_URL;
    const child = spawn(process.execPath, [compiled!.script('src/cli/main.ts'), ...full], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`redis-record ${args.join(' ')} still running: ${stderr}`));
      }, options.timeoutMs ?? 120_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  };
  return {
    run,
    async json(args, options) {
      const result = await run([...args, '--json'], options);
      let data;
      try {
        data = JSON.parse(result.stdout);
      } catch {
        throw new Error(`not JSON (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
      }
      return { ...result, data };
    },
  };
}

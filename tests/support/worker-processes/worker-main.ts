/**
 * The main of a worker process with modes. Env: REDIS_URL, WORKER_PREFIX, WORKER_MODE, WORKER_ARGS (JSON). It
 * connects (its own connection), prints `ready`, starts on a line on stdin, and ends with `done <json>` (what
 * the mode returned) and exit code 0; a failure is one `error <message>` line and exit code 1.
 */
import { connect, disconnect } from '../../../src';

/** Writes one protocol line to stdout. */
export const say = (line: string) => process.stdout.write(line + '\n');

export function runWorkerModes<Args>(modes: Record<string, (args: Args) => Promise<unknown>>): void {
  const main = async (): Promise<void> => {
    const url = process.env.REDIS_URL;
    const prefix = process.env.WORKER_PREFIX;
    const mode = modes[process.env.WORKER_MODE ?? ''];
    if (!url || !prefix || !mode) throw new Error('REDIS_URL, WORKER_PREFIX and a known WORKER_MODE must be set');
    const args = JSON.parse(process.env.WORKER_ARGS ?? '{}') as Args;
    await connect({ url, prefix });
    say('ready');
    await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
    const report = await mode(args);
    say(`done ${JSON.stringify(report)}`);
    await disconnect();
  };
  main().then(
    () => process.exit(0),
    (error) => {
      say(`error ${(error as Error).stack ?? error}`.replace(/\n/g, ' | '));
      process.exit(1);
    },
  );
}

// Runs one example application under its own key prefix, on a Redis given by URL, and deletes every key it
// wrote afterwards. Used by each example when run alone and by `npm run demo` for all of them in a row.
import { connect, disconnect } from '../../src';
import { redisForRun } from '../../tools/private-redis';
import { deletePrefix, prefixInUse, rawClient } from './prefix-keys';

/** Where an example writes its output: console.log when run from the command line, a collector in tests. */
export type Print = (line: string) => void;

/** An example application: it expects a connection and resolves to values a test can check. */
export type ExampleRun<R> = (print: Print) => Promise<R>;

/**
 * Connects redis-record to `url` under `prefix`, runs the example, disconnects, and deletes every key of the
 * prefix (deletePrefix). A prefix that already holds keys is refused before anything is written: the cleanup must
 * never delete data the example did not create.
 */
export async function runExample<R>(url: string, prefix: string, title: string, run: ExampleRun<R>): Promise<R> {
  const raw = rawClient(url);
  raw.on('error', () => undefined);
  await raw.connect();
  try {
    const inUse = await prefixInUse(raw, prefix);
    if (inUse) throw new Error(`${inUse}; set EXAMPLE_PREFIX to another prefix`);
    console.log(`\n#### ${title} (prefix "${prefix}")`);
    await connect({ url, prefix });
    try {
      return await run((line) => console.log(line));
    } finally {
      await disconnect();
      console.log(`(cleanup: ${await deletePrefix(raw, prefix)})`);
    }
  } finally {
    if (raw.isOpen) await raw.close();
  }
}

/** `npx ts-node examples/<file>.ts`: one example on REDIS_URL or a throwaway redis-server. */
export function runAlone<R>(title: string, prefix: string, run: ExampleRun<R>): void {
  const main = async () => {
    const redis = await redisForRun();
    try {
      await runExample(redis.url, process.env.EXAMPLE_PREFIX ?? prefix, title, run);
    } finally {
      await redis.stop();
    }
  };
  main().catch((error) => {
    console.error(`example failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

import { connect, disconnect } from '../../src';
import { Client, connectedClient, forgetPrefix, randomHex, redisForRun } from './bench-redis';

/** What a benchmark or profiling script works with. */
export interface BenchSession {
  readonly url: string;
  /** redis-record's key prefix for the run, fresh. */
  readonly prefix: string;
  /** A client for Redis's figures (INFO) between runs, never inside a timed one. */
  readonly raw: Client;
  /** A client for hand-written node-redis writers or readers. */
  readonly client: Client;
}

/**
 * Runs a script's `work` against REDIS_URL or a private redis-server, with redis-record connected under a fresh
 * prefix (`<label><random hex>`) and two node-redis clients; afterwards deletes the keys under the prefix and
 * closes and stops what it started. A failure is printed and exits with 1.
 */
export function runBenchSession(label: string, work: (session: BenchSession) => Promise<void>): void {
  const run = async () => {
    const redis = await redisForRun();
    const prefix = `${label}${randomHex()}`;
    const raw = await connectedClient(redis.url);
    const client = await connectedClient(redis.url);
    try {
      await connect({ url: redis.url, prefix });
      await work({ url: redis.url, prefix, raw, client });
    } finally {
      await disconnect();
      await forgetPrefix(raw, prefix);
      await client.close();
      await raw.close();
      await redis.stop();
    }
  };
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

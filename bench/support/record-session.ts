import { connect, disconnect } from '../../src';
import { Client, connectedClient, deleteKeys, randomHex, redisForRun } from './bench-redis';

/** What a benchmark of redis-record against hand-written node-redis works with. */
export interface RecordSession {
  readonly url: string;
  /** redis-record's key prefix for the run, fresh. */
  readonly prefix: string;
  /** A client for reading Redis's figures (INFO) between runs, never inside a timed one. */
  readonly raw: Client;
  /** A client for the hand-written writers or readers. */
  readonly client: Client;
}

/**
 * Runs a benchmark's `work` on a private redis-server (or REDIS_URL), with redis-record connected under a fresh
 * prefix and two node-redis clients; afterwards removes the prefix's keys and closes everything. A failure is
 * printed and exits the process with 1.
 */
export function runRecordSession(label: string, work: (session: RecordSession) => Promise<void>): void {
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
      await deleteKeys(raw, prefix);
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

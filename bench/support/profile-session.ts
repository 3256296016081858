import { connect, disconnect } from '../../src';
import { Client, connectedClient, deleteKeys, randomHex, redisForRun } from './bench-redis';

/** What a profiling script works with: redis-record connected under a fresh prefix, and a raw client. */
export interface ProfileSession {
  readonly url: string;
  readonly prefix: string;
  readonly raw: Client;
}

/**
 * Runs a profiling script's `work` against REDIS_URL or a private redis-server, with redis-record connected
 * under a fresh prefix (`<label><random hex>`); afterwards deletes the keys under it and stops what it started.
 * A failure is printed and exits with 1.
 */
export function runProfile(label: string, work: (session: ProfileSession) => Promise<void>): void {
  const run = async () => {
    const redis = await redisForRun();
    const prefix = `${label}${randomHex()}`;
    const raw = await connectedClient(redis.url);
    try {
      await connect({ url: redis.url, prefix });
      await work({ url: redis.url, prefix, raw });
    } finally {
      await disconnect();
      await deleteKeys(raw, prefix);
      await raw.close();
      await redis.stop();
    }
  };
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

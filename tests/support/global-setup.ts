import { redisForRun } from '../../tools/private-redis';

/** One private redis-server for the whole run (or REDIS_URL); test files share it under distinct prefixes. */
export default async function globalSetup(): Promise<void> {
  const redis = await redisForRun();
  process.env.REDIS_URL = redis.url;
  (globalThis as Record<string, unknown>).__redisRecordStop = redis.stop;
}

import { redisForRun } from '../../tools/private-redis';

/**
 * One private redis-server for the whole run (or REDIS_URL); test files share it under distinct prefixes.
 * PRIVATE_RUN_REDIS tells the test files the server is the run's own, so that one whose scripts hold Redis
 * for a long time may start a server of its own beside it (useTestRedis({ ownServer: true })).
 */
export default async function globalSetup(): Promise<void> {
  const given = Boolean(process.env.REDIS_URL);
  const redis = await redisForRun();
  process.env.REDIS_URL = redis.url;
  if (!given) process.env.PRIVATE_RUN_REDIS = '1';
  (globalThis as Record<string, unknown>).__redisRecordStop = redis.stop;
}

// `npm run demo`: the short tour, then every example application, on one throwaway redis-server (or
// REDIS_URL), each under its own prefix, each deleting its keys when it ends.
import { redisForRun } from '../tools/private-redis';
import { runDemo } from './demo';
import { run as expiringLogs } from './expiring-logs';
import { run as feedReader } from './feed-reader';
import { run as leaderboard } from './leaderboard';
import { run as profiles } from './profiles';
import { ExampleRun, runExample } from './support/run-example';
import { run as usersAndPosts } from './users-and-posts';

const examples: Array<[suffix: string, title: string, run: ExampleRun<unknown>]> = [
  ['logs', 'Application logs expiring after 30 days', expiringLogs],
  ['leaderboard', 'Quiz leaderboard, top 100', leaderboard],
  ['feeds', 'Feed reader', feedReader],
  ['profiles', 'Profiles with extra attributes', profiles],
  ['blog', 'Users and their posts', usersAndPosts],
];

async function main(): Promise<void> {
  const base = process.env.DEMO_PREFIX ?? 'demo';
  const redis = await redisForRun();
  console.log(`redis-record demo: ${process.env.REDIS_URL ? 'REDIS_URL' : 'a private redis-server'} at ${redis.url}, prefix "${base}"`);
  try {
    await runDemo(redis.url, base);
    for (const [suffix, title, run] of examples) await runExample(redis.url, `${base}-${suffix}`, title, run);
  } finally {
    await redis.stop();
  }
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

import Redis from 'ioredis';
import { connectedClient, redisForRun } from './bench-redis';
async function main() {
  const redis = await redisForRun();
  const c = await connectedClient(redis.url);
  const io = new Redis(redis.url);
  await c.zAdd('zz', { score: 1, value: 'a' });
  const N = 20000;
  const runs: Record<string, number[]> = { zCard: [], send: [], io: [] };
  for (let r = 0; r < 5; r++) {
    for (const k of Object.keys(runs)) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < N; i++) {
        if (k === 'zCard') await c.zCard('zz');
        else if (k === 'send') await c.sendCommand(['ZCARD', 'zz']);
        else await io.zcard('zz');
      }
      runs[k].push(Number(process.hrtime.bigint() - t) / 1e3 / N);
    }
  }
  for (const [k, v] of Object.entries(runs)) console.log(k, v.map((x) => x.toFixed(1)).join(' '));
  io.disconnect(); await c.close(); await redis.stop();
}
main();

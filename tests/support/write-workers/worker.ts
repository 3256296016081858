/**
 * A worker process for the concurrency tests under tests/writes. Env: REDIS_URL, WORKER_PREFIX, WORKER_MODE,
 * WORKER_ARGS (JSON). It prints `ready` once connected, starts on a line on stdin, and ends with `done <json>`
 * (its report); see tests/support/worker-processes/worker-main.ts. Each process has its own connection. Modes:
 *   upsert  { urls, rounds, token, lanes }  `rounds` times, every url of `urls` upserted as a FeedItem (feed 'f',
 *           writer `token`), `lanes` calls in flight at once; every other round with `update: false`.
 *           Report: { created: the urls this process created, ids: url -> the ids it was answered }.
 *   array   { id, operator, values, lanes }  each of `values` written onto TagBag `id`'s tags with
 *           Model.update's `operator` ('push' or 'addToSet'), one call per value, `lanes` in flight at once.
 *           Report: { calls: the number of calls that resolved }.
 */
import { runWorkerModes } from '../worker-processes/worker-main';
import { FeedItem, TagBag } from './worker-models';

type Args = { urls: string[]; rounds: number; token: string; lanes: number };
type ArrayArgs = { id: string; operator: 'push' | 'addToSet'; values: string[]; lanes: number };

async function upsert(args: Args) {
  const created: string[] = [];
  const ids: Record<string, string[]> = {};
  const calls = Array.from({ length: args.rounds }, (_, round) => args.urls.map((url) => ({ url, round }))).flat();
  let next = 0;
  const lane = async () => {
    while (next < calls.length) {
      const { url, round } = calls[next++];
      const result = await FeedItem.upsert({ url, feed: 'f', writer: args.token }, { on: 'url', update: round % 2 === 0 });
      if (result.created) created.push(url);
      (ids[url] ??= []).push(result.entity.id);
    }
  };
  await Promise.all(Array.from({ length: args.lanes }, lane));
  return { created, ids };
}

async function array(args: ArrayArgs) {
  let next = 0;
  let calls = 0;
  const lane = async () => {
    while (next < args.values.length) {
      const value = args.values[next++];
      await TagBag.update(args.id, { tags: args.operator === 'push' ? { push: value } : { addToSet: value } });
      calls++;
    }
  };
  await Promise.all(Array.from({ length: args.lanes }, lane));
  return { calls };
}

runWorkerModes<Args & ArrayArgs>({ upsert, array });

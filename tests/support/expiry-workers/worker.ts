/**
 * A worker process for the concurrency tests under tests/expiry. Env: REDIS_URL, WORKER_PREFIX, WORKER_MODE,
 * WORKER_ARGS (JSON). It prints `ready` once connected, starts on a line on stdin, and ends with
 * `done <json>` (its report); `error <message>` lines are failures the test shows (see
 * tests/support/worker-processes/worker-main.ts). Each process has its own connection. Modes:
 *   increment  { whole, mixed, count, lanes }  at the same time, `count` increments of 1 of Tally `whole`, and
 *              `count` of Tally `mixed` where every 10th adds 0.25 instead of 1, each spread over `lanes`
 *              instances. Report: { whole, mixed } (every reply, per tally).
 *   version    { id, ops, token }  `ops` successful load-change-save rounds on Ledger `id` (total + 1, token
 *              appended), retrying on StaleObjectError. Report: { ok, stale }.
 *   lock       { locked, bare, ops, token }  at the same time, `ops` load-change-save rounds (total + 1, token
 *              appended) of LockBox `locked` inside withLock, and as many of LockBox `bare` without it.
 *              Report: { locked, bare } (rounds done).
 *   hold       { ids, ttlMs }  takes the locks of LockBoxes `ids` (ttlMs[i] each), prints `locked <epoch ms>`
 *              and waits to be killed.
 *   acquire    { id, ttlMs, waitMs }  takes the lock (waiting up to waitMs), prints `acquired <epoch ms>`.
 *   cap        { ops, token }  `ops` rounds, each creating a CapEntry or CapCounter object, raising a CapEntry
 *              score (load, change, save) or lowering CapCounter points (increment), its own objects only.
 *              Report: { entries, counters } (id -> last acknowledged value, evicted ones included) and counts.
 */
import { NotFoundError, StaleObjectError } from '../../../src';
import { runWorkerModes, say } from '../worker-processes/worker-main';
import { CapCounter, CapEntry, Ledger, LockBox, Tally } from './worker-models';

type Args = Record<string, unknown> & { id: string };

const rand = (n: number) => Math.floor(Math.random() * n);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function increment(args: Args) {
  const count = Number(args.count);
  const lanes = Number(args.lanes);
  const hammer = async (id: string, amount: (n: number) => number) => {
    const values: number[] = [];
    let next = 0;
    const lane = async () => {
      const tally = await Tally.findOrFail(id);
      while (next < count) values.push(await tally.increment('hits', amount(next++)));
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    return values;
  };
  const [whole, mixed] = await Promise.all([
    hammer(String(args.whole), () => 1),
    hammer(String(args.mixed), (n) => (n % 10 === 0 ? 0.25 : 1)),
  ]);
  return { whole, mixed };
}

async function version(args: Args) {
  let ok = 0;
  let stale = 0;
  while (ok < Number(args.ops)) {
    const ledger = await Ledger.findOrFail(args.id);
    ledger.total += 1;
    ledger.tokens += `${args.token}.${ok};`;
    await sleep(rand(3));
    try {
      await ledger.save();
      ok++;
    } catch (error) {
      if (!(error instanceof StaleObjectError)) throw error;
      stale++;
    }
  }
  return { ok, stale };
}

async function lock(args: Args) {
  const ops = Number(args.ops);
  const rounds = async (id: string, inLock: boolean) => {
    let done = 0;
    const change = async (box: LockBox) => {
      box.total += 1;
      box.tokens += `${args.token}.${done};`;
      await sleep(rand(3));
      await box.save();
    };
    for (; done < ops; done++) {
      if (inLock) await LockBox.withLock(id, change, { ttlMs: 5000, waitMs: 120_000 });
      else await change(await LockBox.findOrFail(id));
    }
    return done;
  };
  const [locked, bare] = await Promise.all([rounds(String(args.locked), true), rounds(String(args.bare), false)]);
  return { locked, bare };
}

async function hold(args: Args) {
  const ids = args.ids as string[];
  const ttls = args.ttlMs as number[];
  const take = async (i: number): Promise<void> => {
    if (i === ids.length) {
      say(`locked ${Date.now()}`);
      await new Promise(() => undefined); // until killed
    }
    await LockBox.withLock(ids[i], () => take(i + 1), { ttlMs: ttls[i] });
  };
  await take(0);
}

async function acquire(args: Args) {
  await LockBox.withLock(args.id, async () => say(`acquired ${Date.now()}`), {
    ttlMs: Number(args.ttlMs),
    waitMs: Number(args.waitMs),
  });
  return {};
}

async function cap(args: Args) {
  const ops = Number(args.ops);
  const entries: Record<string, number> = {};
  const counters: Record<string, number> = {};
  const liveEntries: string[] = [];
  const liveCounters: string[] = [];
  const counts = { creates: 0, updates: 0, increments: 0, evicted: 0 };
  const dropFrom = (list: string[], id: string) => list.splice(list.indexOf(id), 1);
  let n = 0;
  for (let round = 0; round < ops; round++) {
    const roll = Math.random();
    if (roll < 0.2 || liveEntries.length === 0) {
      const entry = await CapEntry.create({ team: `t${rand(4)}`, score: rand(100), tag: `${args.token}-${n++}` });
      entries[entry.id] = entry.score!;
      liveEntries.push(entry.id);
      counts.creates++;
    } else if (roll < 0.4 || liveCounters.length === 0) {
      const counter = await CapCounter.create({ team: `t${rand(4)}`, points: rand(100) });
      counters[counter.id] = counter.points;
      liveCounters.push(counter.id);
      counts.creates++;
    } else if (roll < 0.7) {
      const id = liveEntries[rand(liveEntries.length)];
      const entry = await CapEntry.find(id);
      if (!entry) {
        dropFrom(liveEntries, id);
        counts.evicted++;
        continue;
      }
      if (entry.score !== entries[id]) say(`error CapEntry ${id} holds ${entry.score}, last written ${entries[id]}`);
      entry.score = entry.score! + rand(4);
      if (rand(3) === 0) entry.team = `t${rand(4)}`;
      try {
        await entry.save();
        entries[id] = entry.score;
        counts.updates++;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        dropFrom(liveEntries, id);
        counts.evicted++;
      }
    } else {
      const id = liveCounters[rand(liveCounters.length)];
      const loaded = await CapCounter.find(id);
      if (!loaded) {
        dropFrom(liveCounters, id);
        counts.evicted++;
        continue;
      }
      try {
        counters[id] = await loaded.increment('points', -rand(4));
        counts.increments++;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        dropFrom(liveCounters, id);
        counts.evicted++;
      }
    }
  }
  return { entries, counters, counts };
}

runWorkerModes<Args>({ increment, version, lock, hold, acquire, cap });

/**
 * The crash test's worker: an endless stream of random creates, updates and removes of CrashItem, as fast
 * as it can, until it is killed. Run with REDIS_URL and WORKER_PREFIX set (WORKER_CLIENT_NAME optional).
 * It starts by itself once connected (no line on stdin).
 *
 * Protocol (stdout, one line each, written synchronously before/after the command):
 *   ready                      connected, work starts
 *   c <json>                   a create is about to be sent with these attributes
 *   C <id> <json>              the create was acknowledged
 *   u <id> <json>              an update is about to be sent; <json> is the full state after it
 *   U <id>                     the update was acknowledged
 *   r <id>                     a remove is about to be sent
 *   R <id>                     the remove was acknowledged
 *   E <message>                something went wrong that should not (e.g. an existing object not found)
 */
import { writeSync } from 'fs';
import { connectNamedWorker } from '../worker-processes/connect-named-worker';
import { CrashItem, stateOfItem } from './crash-item';

const LANES = 4;
const TARGET_POPULATION = 200;

function say(line: string): void {
  // Synchronous, so a line written before a command reaches the parent even if the process dies next.
  writeSync(1, line + '\n');
}

const rand = (n: number) => Math.floor(Math.random() * n);
const chance = (p: number) => Math.random() < p;
const word = () =>
  Math.random()
    .toString(36)
    .slice(2, 2 + 1 + rand(10));

function randomize(item: CrashItem): void {
  // Each attribute is left alone, changed, or (for updates) cleared to undefined.
  if (chance(0.5)) item.name = chance(0.15) ? undefined : word();
  if (chance(0.5)) item.count = chance(0.15) ? undefined : rand(1_000_000) - 500_000;
  if (chance(0.4)) item.flag = chance(0.2) ? undefined : chance(0.5);
  if (chance(0.4)) item.note = chance(0.3) ? undefined : word().repeat(1 + rand(20));
  if (chance(0.3)) item.data = chance(0.3) ? undefined : { tags: [word(), word()].slice(0, 1 + rand(2)), n: rand(100) };
}

async function main(): Promise<void> {
  const { client, prefix } = await connectNamedWorker('crash-worker');

  const ids: string[] = (await client.zRange(`${prefix}:{CrashItem}:all`, 0, -1)).slice();
  const cached = new Map<string, CrashItem>();
  const busy = new Set<string>();

  const pickFree = (): string | undefined => {
    for (let attempt = 0; attempt < 8 && ids.length > 0; attempt++) {
      const id = ids[rand(ids.length)];
      if (!busy.has(id)) return id;
    }
    return undefined;
  };
  const forget = (id: string) => {
    const at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1);
    cached.delete(id);
  };
  /** The instance to change: the cached one, or a fresh load (which must exist: this is the only writer). */
  const obtain = async (id: string): Promise<CrashItem | undefined> => {
    const held = cached.get(id);
    if (held && chance(0.5)) return held;
    const loaded = await CrashItem.find(id);
    if (!loaded) {
      say(`E find(${id}) returned null, yet this worker, the only writer, has not removed it`);
      forget(id);
      return undefined;
    }
    cached.set(id, loaded);
    return loaded;
  };

  const step = async (): Promise<void> => {
    const removeBias = ids.length > TARGET_POPULATION ? 0.45 : 0.2;
    const roll = Math.random();
    if (roll < 0.35 || ids.length < LANES * 2) {
      const item = CrashItem.build({});
      randomize(item);
      say(`c ${stateOfItem(item)}`);
      await item.save();
      say(`C ${item.id} ${stateOfItem(item)}`);
      ids.push(item.id!);
      cached.set(item.id!, item);
      return;
    }
    const id = pickFree();
    if (id === undefined) return;
    busy.add(id);
    try {
      const item = await obtain(id);
      if (!item) return;
      if (roll < 1 - removeBias) {
        randomize(item);
        say(`u ${id} ${stateOfItem(item)}`);
        try {
          await item.save();
        } catch (error) {
          say(`E update of ${id} failed: ${(error as Error).message}`);
          forget(id);
          return;
        }
        say(`U ${id}`);
      } else {
        forget(id);
        say(`r ${id}`);
        await item.remove();
        say(`R ${id}`);
      }
    } finally {
      busy.delete(id);
    }
  };

  say('ready');
  const lane = async () => {
    for (;;) await step();
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

main().catch((error) => {
  say(`E worker stopped: ${(error as Error).stack ?? error}`);
  process.exit(1);
});

/**
 * A worker process for the index concurrency tests. Env: REDIS_URL, WORKER_PREFIX, WORKER_MODE, and per mode:
 *   race   WORKER_EMAIL: waits for a line on stdin, creates one RaceMember with that e-mail, prints
 *          `ok <id>` or `unique <attribute>` (UniqueConstraintError) or `error <message>`, then exits.
 *   churn  WORKER_IDS (comma-separated ChurnItem ids), WORKER_OPS: waits for a line on stdin, then in each of
 *          CHURN_LANES lanes, WORKER_OPS times: loads a random object, changes random indexed attributes (scope and
 *          unique ones included, clearing some) and saves, or sometimes removes it and creates a replacement;
 *          prints one JSON line of counts, each round counted once as a save, a removal, a refusal (unique)
 *          or a miss (the object was gone).
 * Lines other than these mean a failure the test reports.
 */
import { connect, disconnect, NotFoundError, UniqueConstraintError } from '../../../src';
import { CHURN_LANES, ChurnItem, RaceMember } from './worker-models';

const rand = (n: number) => Math.floor(Math.random() * n);
const chance = (p: number) => Math.random() < p;
const pick = <T>(values: readonly T[]) => values[rand(values.length)];

function firstLine(): Promise<void> {
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function race(): Promise<void> {
  const email = process.env.WORKER_EMAIL!;
  process.stdout.write('ready\n');
  await firstLine();
  try {
    const member = await RaceMember.create({ email, worker: String(process.pid) });
    process.stdout.write(`ok ${member.id}\n`);
  } catch (error) {
    if (error instanceof UniqueConstraintError) process.stdout.write(`unique ${error.attribute}\n`);
    else process.stdout.write(`error ${(error as Error).message}\n`);
  }
}

const COLORS = ['red', 'green', 'blue', 'a:b', '{x}'];
const OWNERS = ['o1', 'o2', 'o3', 'o4'];
const EMAILS = ['A@x.io', 'a@X.io', 'b@x.io', 'B@x.io', 'c@x.io', 'd@x.io'];
const CODES = ['k1', 'k2', 'k3', 'K1'];

function randomize(item: ChurnItem): void {
  const clear = () => chance(0.15);
  if (chance(0.5)) item.n = clear() ? undefined : rand(20) - 5;
  if (chance(0.4)) item.color = clear() ? undefined : pick(COLORS);
  if (chance(0.3)) item.flag = clear() ? undefined : chance(0.5);
  if (chance(0.4)) item.title = clear() ? undefined : pick(['', 'a', 'a\0b', 'b', 'é', '😀']) + rand(3);
  if (chance(0.4)) item.owner = clear() ? undefined : pick(OWNERS);
  if (chance(0.4)) item.at = clear() ? undefined : new Date(rand(10) * 1000 - 3000);
  if (chance(0.3)) item.slug = clear() ? undefined : pick(['s', 't', 'u']);
  if (chance(0.4)) item.rank = clear() ? undefined : rand(5);
  if (chance(0.3)) item.email = clear() ? undefined : pick(EMAILS);
  if (chance(0.3)) item.code = clear() ? undefined : pick(CODES);
}

async function churn(): Promise<void> {
  const ids = process.env.WORKER_IDS!.split(',');
  const ops = Number(process.env.WORKER_OPS);
  process.stdout.write('ready\n');
  await firstLine(); // every writer starts at the same moment
  const counts = { saves: 0, unique: 0, missing: 0, removes: 0, creates: 0 };
  const lane = async () => {
    for (let round = 0; round < ops; round++) {
      const at = rand(ids.length);
      const item = await ChurnItem.find(ids[at]);
      if (!item) {
        // another writer removed it (and created a replacement): pick from the objects there are now
        counts.missing++;
        ids.splice(0, ids.length, ...(await ChurnItem.findIds()));
        continue;
      }
      try {
        if (chance(0.03)) {
          const removed = item.id;
          await item.remove();
          counts.removes++;
          const fresh = ChurnItem.build({});
          randomize(fresh);
          fresh.email = undefined; // a create that collides would just fail: keep the population
          fresh.code = undefined;
          await fresh.save();
          // another lane may have replaced the list meanwhile: put the new id where the removed one is, if anywhere
          const slot = ids.indexOf(removed);
          if (slot >= 0) ids[slot] = fresh.id!;
          else ids.push(fresh.id!);
          counts.creates++;
          continue;
        }
        randomize(item);
        await item.save();
        counts.saves++;
      } catch (error) {
        if (error instanceof UniqueConstraintError) counts.unique++;
        else if (error instanceof NotFoundError) counts.missing++;
        else throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: CHURN_LANES }, lane));
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

async function main(): Promise<void> {
  await connect({ url: process.env.REDIS_URL, prefix: process.env.WORKER_PREFIX });
  if (process.env.WORKER_MODE === 'race') await race();
  else await churn();
  await disconnect();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(`error ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);

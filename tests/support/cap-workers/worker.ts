/**
 * A worker process of tests/writes/cap-per-value.test.ts (protocol: tests/support/worker-processes/worker-main.ts;
 * each process has its own connection). Mode:
 *   logins  { ops, token, users }  `ops` rounds on CapLogin, each one of: a create for a shared user (u0 ..
 *           u<users-1>); a raise of `at` of one of its own objects of a shared user (load-free: the instance it
 *           saved); a create for its own user `p-<token>`; a move of one of its own user's objects to a shared
 *           user (a save changing userId and at); a saveMany of 4 creates spanning shared users and its own.
 *           Objects of shared users never leave them and only rise, so their survivors are the first PER_KEEP
 *           of every acknowledged value. Its own user is written by this process alone: it follows that group
 *           exactly, trim by trim, and a move of an object it holds must succeed.
 *           Report: { acked: id -> [userId, at] last acknowledged in a shared user, own: [id, at] of its
 *           user's group as it follows it, counts }.
 */
import { NotFoundError } from '../../../src';
import { runWorkerModes } from '../worker-processes/worker-main';
import { CapLogin, PER_KEEP } from './worker-models';

type Args = { ops: number; token: string; users: number };

const rand = (n: number) => Math.floor(Math.random() * n);

async function logins({ ops, token, users }: Args) {
  const own = `p-${token}`;
  const acked: Record<string, [string, number]> = {};
  const rising: CapLogin[] = [];
  // its own user's group, in the cap's order: highest `at` first, ties by the larger id
  let group: CapLogin[] = [];
  const counts = { creates: 0, raises: 0, moves: 0, batches: 0, evicted: 0 };
  let n = 0;
  const attributes = (userId: string) => ({ userId, at: rand(1000), token: `${token}.${n++}`, device: `d${rand(3)}` });
  const ranked = (a: CapLogin, b: CapLogin) => b.at! - a.at! || Number(b.id) - Number(a.id);
  const saved = (login: CapLogin) => {
    if (login.userId === own) {
      group = [...group, login].sort(ranked).slice(0, PER_KEEP);
    } else {
      acked[login.id!] = [login.userId!, login.at!];
      rising.push(login);
    }
    counts.creates++;
  };
  for (let round = 0; round < ops; round++) {
    const roll = Math.random();
    if (roll < 0.25 || (roll < 0.5 && rising.length === 0)) {
      saved(await CapLogin.create(attributes(`u${rand(users)}`)));
    } else if (roll < 0.5) {
      const login = rising[rand(rising.length)];
      login.at! += 1 + rand(100);
      try {
        await login.save();
        acked[login.id!][1] = login.at!;
        counts.raises++;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        rising.splice(rising.indexOf(login), 1);
        counts.evicted++;
      }
    } else if (roll < 0.7 || (roll < 0.85 && group.length === 0)) {
      saved(await CapLogin.create(attributes(own)));
    } else if (roll < 0.85) {
      const login = group[rand(group.length)];
      login.userId = `u${rand(users)}`;
      login.at = rand(1000);
      await login.save(); // the group holds it: a NotFoundError fails the worker
      group = group.filter((other) => other !== login);
      saved(login);
      counts.creates--;
      counts.moves++;
    } else {
      const items = Array.from({ length: 4 }, () => attributes(Math.random() < 0.3 ? own : `u${rand(users)}`));
      const result = await CapLogin.saveMany(items);
      if (!result.ok) throw new Error(`saveMany failed: ${result.failed.map((f) => f.error.message).join('; ')}`);
      for (const login of result.saved) saved(login);
      counts.batches++;
    }
  }
  return { acked, own: group.map((login) => [login.id, login.at]), counts };
}

runWorkerModes<Args>({ logins });

import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** lock.lua: take an object's lock if it is free (see its header). */
export interface LockInput {
  /** The lock key, `<base>:lock:<id>`. */
  readonly key: string;
  readonly token: string;
  readonly ttlMs: number;
}

/** Whether the lock was taken. */
export const lockScript: EntryScript<LockInput, boolean> = {
  function: () => scripts.lock(),
  keys: ({ key }) => [key],
  args: ({ token, ttlMs }) => [token, String(ttlMs)],
  reply: (reply) => Number(reply) === 1,
};

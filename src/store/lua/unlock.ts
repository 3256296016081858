import { EntryScript } from '../entry-script';
import { scripts } from '../scripts';

/** unlock.lua: release an object's lock, only by its holder (see its header). */
export interface UnlockInput {
  readonly key: string;
  readonly token: string;
}

/** Whether the lock was released (false: it had expired or is another holder's). */
export const unlockScript: EntryScript<UnlockInput, boolean> = {
  function: () => scripts.unlock(),
  keys: ({ key }) => [key],
  args: ({ token }) => [token],
  reply: (reply) => Number(reply) === 1,
};

import { useWatchedConnection } from './watched-connection';

/** What useScriptCalls has seen since its last reset. */
export interface ScriptCalls {
  /** How many calls of `script` (by its function's name) were sent. */
  sent(script: { readonly name: string }): number;
  /** The most script calls awaiting their reply at once. */
  readonly most: number;
  /** Script calls awaiting their reply now. */
  readonly running: number;
  reset(): void;
}

/**
 * redis-record's connection for the test file (useWatchedConnection), watching the function calls (FCALL) it sends: how many
 * of each script, and how many await their reply at once. Reset before each test, and by `reset()`.
 */
export function useScriptCalls(redis: { readonly prefix: string }): ScriptCalls {
  const counts = new Map<string, number>();
  let running = 0;
  let most = 0;
  useWatchedConnection(redis, 'sendCommand', (sendCommand) => (...args) => {
    const reply = sendCommand(...args) as Promise<unknown>;
    const command = args[0] as string[];
    if (!String(command[0]).toUpperCase().startsWith('FCALL')) return reply;
    counts.set(command[1], (counts.get(command[1]) ?? 0) + 1);
    most = Math.max(most, ++running);
    return reply.finally(() => running--);
  });
  const calls: ScriptCalls = {
    sent: (script) => counts.get(script.name) ?? 0,
    get most() {
      return most;
    },
    get running() {
      return running;
    },
    reset() {
      counts.clear();
      running = 0;
      most = 0;
    },
  };
  beforeEach(() => calls.reset());
  return calls;
}

import type { Client } from './bench-redis';

/** What one call of a step costs, in microseconds: wall time, this process's CPU, Redis's main-thread CPU. */
export interface CallCost {
  wall: number;
  cpu: number;
  redis: number;
}

/** CPU seconds Redis's main thread has used so far (INFO cpu): read between calls, never inside a timed one. */
export async function redisCpu(raw: Client): Promise<number> {
  const info = await raw.info('cpu');
  const field = (name: string) => Number(info.match(new RegExp(`${name}:([\\d.]+)`))?.[1] ?? NaN);
  return field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
}

/**
 * Runs `run` (which makes `calls` calls, each awaited before the next) and divides its costs by `calls`. The
 * Node CPU figure is this process's (steady on a busy machine, where wall time is not); the Redis figure is
 * the server's main thread, commands and I/O together.
 */
export async function callCosts(raw: Client, calls: number, run: () => Promise<void>): Promise<CallCost> {
  const redisBefore = await redisCpu(raw);
  const cpu = process.cpuUsage();
  const began = process.hrtime.bigint();
  await run();
  const wall = Number(process.hrtime.bigint() - began) / 1e3 / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls, redis: (((await redisCpu(raw)) - redisBefore) * 1e6) / calls };
}

/** `wall / Node CPU / Redis CPU us` of a cost, for the profiles' lines. */
export const formatCost = (cost: CallCost) => `${cost.wall.toFixed(1)} / ${cost.cpu.toFixed(1)} / ${cost.redis.toFixed(1)} us`;

/** Per command (lower case, as INFO commandstats names them): calls so far and the microseconds Redis timed. */
export type CommandTimes = Map<string, { calls: number; usec: number }>;

/**
 * Redis's own timing of every command so far (INFO commandstats), to diff around a run. A command run inside
 * a transaction counts for itself and within its EXEC; a script's commands within the script's call.
 */
export async function commandTimes(raw: Client): Promise<CommandTimes> {
  const times: CommandTimes = new Map();
  for (const match of (await raw.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    times.set(match[1], { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return times;
}

/** The calls and microseconds of `command` between two readings of commandTimes (0 and 0 if it never ran). */
export function commandTimeBetween(before: CommandTimes, after: CommandTimes, command: string): { calls: number; usec: number } {
  const was = before.get(command) ?? { calls: 0, usec: 0 };
  const is = after.get(command) ?? { calls: 0, usec: 0 };
  return { calls: is.calls - was.calls, usec: is.usec - was.usec };
}

import { CallCost } from './call-costs';
import { median } from './measure';
import { printTable } from './table';

/** How a writers-taking-turns benchmark names what it counts: 'update' and 'updates', say. */
export interface TurnUnits {
  readonly one: string;
  readonly many: string;
}

/**
 * Runs every writer once per round, the order rotating each round, and prints each counted run; the first
 * round is a warm-up, not counted. Resolves to each writer's counted runs.
 */
export async function writerTurns<W extends string>(
  writers: readonly W[],
  rounds: number,
  units: TurnUnits,
  timed: (writer: W, round: number, turn: number) => Promise<CallCost>,
): Promise<Map<W, CallCost[]>> {
  const runs = new Map<W, CallCost[]>();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < writers.length; k++) {
      const writer = writers[(k + round) % writers.length];
      const run = await timed(writer, round, k);
      if (round === 0) continue; // warm-up
      runs.set(writer, [...(runs.get(writer) ?? []), run]);
      const rate = Math.round(1e6 / run.wall).toLocaleString('en-US');
      console.log(
        `  round ${round}: ${writer}: ${rate} ${units.many}/s, client ${run.cpu.toFixed(1)} us, Redis ${run.redis.toFixed(1)} us per ${units.one}`,
      );
    }
  }
  return runs;
}

/** The table of medians: per writer, its rate, client and Redis CPU, and `lead`'s ratio against it. */
export function printWriterTable<W extends string>(writers: readonly W[], runs: Map<W, CallCost[]>, lead: W, units: TurnUnits): void {
  const med = (writer: W, part: keyof CallCost) => median(runs.get(writer)!.map((run) => run[part]));
  const perSecond = (writer: W) => 1e6 / med(writer, 'wall');
  console.log('');
  printTable(
    ['writer', `${units.many}/s`, `client CPU per ${units.one}`, `Redis CPU per ${units.one}`, `${lead} vs this`],
    ['left', 'right', 'right', 'right', 'right'],
    writers.map((writer) => [
      writer,
      Math.round(perSecond(writer)).toLocaleString('en-US'),
      `${med(writer, 'cpu').toFixed(1)} us`,
      `${med(writer, 'redis').toFixed(1)} us`,
      writer === lead ? '' : `${(perSecond(lead) / perSecond(writer)).toFixed(2)}x`,
    ]),
  );
}

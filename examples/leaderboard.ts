// A quiz leaderboard that keeps only the top 100 scores, with ranks.
// Run alone: npx ts-node examples/leaderboard.ts
import { Attr, BaseEntity, Index, Model, Unique } from '../src';
import { seeded } from '../tools/seeded-random';
import { Print, runAlone } from './support/run-example';

// The cap trims the model inside every write's script: never more than 100 entries, the lowest evicted whole.
@Model({ cap: { by: 'score', keep: 100 } })
export class QuizScore extends BaseEntity {
  @Attr() @Unique() player!: string; // one entry per player: their best score
  @Attr() @Index() score!: number;
  @Attr() achievedAt!: Date;
}

/** Records a finished quiz: a player's entry is kept at their best score. Resolves to the entry. */
export async function recordScore(player: string, score: number): Promise<QuizScore> {
  const entry = await QuizScore.findOneBy({ player });
  if (!entry) return QuizScore.create({ player, score, achievedAt: new Date() });
  if (score > entry.score) {
    entry.score = score;
    entry.achievedAt = new Date();
    await entry.save();
  }
  return entry;
}

/**
 * A player's rank: 1 + the number of entries with a higher score, so equal scores share a rank (1, 2, 2, 4).
 * null when the player is not on the board.
 */
export async function rankOf(player: string): Promise<number | null> {
  const entry = await QuizScore.findOneBy({ player });
  if (!entry) return null;
  return 1 + (await QuizScore.count({ score: { gt: entry.score } }));
}

/** One page of the board with ranks; tied entries share the rank of the first of them. */
export async function boardPage(offset: number, limit: number): Promise<Array<{ rank: number; player: string; score: number }>> {
  const entries = await QuizScore.findBy({}, { orderBy: { score: 'desc' }, offset, limit });
  const rows: Array<{ rank: number; player: string; score: number }> = [];
  for (const [i, entry] of entries.entries()) {
    const previous = rows[i - 1];
    const rank =
      previous && previous.score === entry.score
        ? previous.rank
        : i === 0 && offset > 0
          ? 1 + (await QuizScore.count({ score: { gt: entry.score } }))
          : offset + i + 1;
    rows.push({ rank, player: entry.player, score: entry.score });
  }
  return rows;
}

export interface LeaderboardResult {
  /** Entries on the board after 150 players played (at most 100). */
  count: number;
  top10: Array<{ rank: number; player: string; score: number }>;
  /** Ranks 95 to 100 (the bottom of the board). */
  bottom: Array<{ rank: number; player: string; score: number }>;
  /** The lowest score still on the board. */
  lowestKept: number;
  /** Players who played but were evicted (their score is below the 100th). */
  evicted: number;
  /** The player ranked 50th, before and after beating the best score. */
  climber: { player: string; before: number | null; after: number | null; score: number };
  /** A new player scoring below the lowest kept score: evicted as soon as created. */
  late: { rank: number | null; found: boolean };
}

export async function run(print: Print): Promise<LeaderboardResult> {
  // 150 players with seeded scores from 0 to 999 (the same board on every run).
  const random = seeded(42);
  const scores = new Map<string, number>();
  for (let i = 1; i <= 150; i++) {
    const player = `player-${String(i).padStart(3, '0')}`;
    scores.set(player, Math.floor(random() * 1000));
    await recordScore(player, scores.get(player)!);
  }
  const count = await QuizScore.count();
  print(`150 players played; the board keeps ${count}`);

  const top10 = await boardPage(0, 10);
  for (const row of top10) print(`#${String(row.rank).padEnd(3)} ${row.player}  ${row.score}`);
  const bottom = await boardPage(94, 6);
  print(`bottom of the board: ${bottom.map((row) => `#${row.rank} ${row.player} ${row.score}`).join(', ')}`);
  const lowestKept = bottom[bottom.length - 1].score;
  let evicted = 0;
  for (const player of scores.keys()) if ((await QuizScore.findOneBy({ player })) === null) evicted++;
  print(`lowest score kept: ${lowestKept}; ${evicted} players were evicted`);

  // The player ranked 50th beats the best score: the same entry moves to the top (one save, one script).
  const climber = (await boardPage(49, 1))[0].player;
  const before = await rankOf(climber);
  const best = (await QuizScore.findBy({}, { orderBy: { score: 'desc' }, limit: 1 }))[0].score;
  await recordScore(climber, best + 1);
  const after = await rankOf(climber);
  print(`${climber} scores ${best + 1}: rank ${before} -> ${after}`);

  await recordScore('newcomer', Math.max(0, lowestKept - 1));
  const late = { rank: await rankOf('newcomer'), found: (await QuizScore.findOneBy({ player: 'newcomer' })) !== null };
  print(`newcomer scores ${Math.max(0, lowestKept - 1)}: on the board? ${late.found} (rank ${late.rank ?? 'none'})`);

  return { count, top10, bottom, lowestKept, evicted, climber: { player: climber, before, after, score: best + 1 }, late };
}

if (require.main === module) runAlone('Quiz leaderboard, top 100', 'example-leaderboard', run);

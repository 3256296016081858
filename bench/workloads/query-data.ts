import { seeded } from '../../tools/seeded-random';

/**
 * The query workload's posts and questions, as in bench/query.ts: topic among t0..t9, score 0..999, authorId
 * among a0..a499, createdAt one second apart, from a seeded generator so every library holds the same data.
 */
export interface QueryPost {
  topic: string;
  score: number;
  authorId: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

const TOPICS = 10;
const AUTHORS = 500;
const EPOCH = Date.UTC(2024, 0, 1);

export function makeQueryPosts(n: number, seed: number): QueryPost[] {
  const random = seeded(seed);
  return Array.from({ length: n }, (_, i) => ({
    topic: `t${Math.floor(random() * TOPICS)}`,
    score: Math.floor(random() * 1000),
    authorId: `a${Math.floor(random() * AUTHORS)}`,
    createdAt: EPOCH + i * 1000,
  }));
}

export const Q1_TOPIC = 't3';
export const Q1_MIN = 100;
export const Q1_MAX = 200;
export const TOP = 20;
/** Q4 cycles through these authors, one per repetition. */
export const Q4_AUTHORS = Array.from({ length: 10 }, (_, k) => `a${(k * 47 + 13) % AUTHORS}`);

export const QUERIES = [
  { key: 'Q1', label: `Q1 topic = '${Q1_TOPIC}' AND score ${Q1_MIN}..${Q1_MAX}, ids` },
  { key: 'Q2', label: 'Q2 the same, objects' },
  { key: 'Q3', label: `Q3 top ${TOP} by score desc, objects` },
  { key: 'Q4', label: `Q4 newest ${TOP} of one author, objects` },
] as const;
export type QueryKey = (typeof QUERIES)[number]['key'];

/** What each query must answer over the first `n` posts, to check every library's reply before timing it. */
export class Expected {
  readonly q1Count: number;
  /** Indexes (in the generated data) of the posts Q1 and Q2 must return, ascending. */
  readonly q1Posts: number[] = [];
  readonly topScores: number[];
  private readonly newestByAuthor = new Map<string, number[]>();

  constructor(posts: readonly QueryPost[], n: number) {
    let count = 0;
    const scores: number[] = [];
    for (let i = 0; i < n; i++) {
      const post = posts[i];
      if (post.topic === Q1_TOPIC && post.score >= Q1_MIN && post.score <= Q1_MAX) {
        count++;
        this.q1Posts.push(i);
      }
      scores.push(post.score);
    }
    this.q1Count = count;
    this.topScores = scores.sort((a, b) => b - a).slice(0, TOP);
    for (const author of Q4_AUTHORS) {
      const times: number[] = [];
      for (let i = n - 1; i >= 0 && times.length < TOP; i--) if (posts[i].authorId === author) times.push(posts[i].createdAt);
      this.newestByAuthor.set(author, times);
    }
  }

  newest(author: string): number[] {
    return this.newestByAuthor.get(author)!;
  }
}

export const sameNumbers = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/** Checks a Q2 answer: every post inside the where, and as many as the data has. */
export function checkQ2(label: string, posts: ReadonlyArray<{ topic: string; score: number }>, expected: Expected): void {
  if (posts.length !== expected.q1Count) throw new Error(`${label} Q2 returned ${posts.length} posts, expected ${expected.q1Count}`);
  for (const post of posts) {
    if (post.topic !== Q1_TOPIC || post.score < Q1_MIN || post.score > Q1_MAX)
      throw new Error(`${label} Q2 returned a post outside the where`);
  }
}

/** One library in the query workload: how it loads posts and answers each query, checking the answer. */
export interface QueryLibrary {
  readonly label: 'redis-record' | 'hand-written' | 'nohm';
  load(posts: readonly QueryPost[], from: number, to: number): Promise<void>;
  query(key: QueryKey, rep: number, expected: Expected): Promise<void>;
}

import { seeded } from '../../tools/seeded-random';

/**
 * The posts every library stores in the suite: the same seeded data for each, so that a difference in time or
 * memory is the library's, never the data's. Author and content lengths follow the CRUD benchmark (Table I of
 * the ActiveRedis paper); the topic is one of TOPICS values and createdAt is distinct, so both can be indexed.
 */
export interface PostData {
  author: string;
  topic: string;
  content: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export const TOPICS = 20;

/** The seed of the benchmark suite's posts (bench/all.ts), for tools that measure in its conditions. */
export const SUITE_SEED = 20240601;
const EPOCH = Date.UTC(2024, 0, 1);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;!?';

function makeText(random: () => number, min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  // One flat string per text: appending character by character would keep a rope node per character
  // (tens of bytes each), gigabytes of heap for the bulk workload's posts.
  const codes = new Uint8Array(length);
  for (let i = 0; i < length; i++) codes[i] = ALPHABET.charCodeAt(Math.floor(random() * ALPHABET.length));
  return Buffer.from(codes.buffer, codes.byteOffset, length).toString('latin1');
}

export interface PostSet {
  readonly posts: PostData[];
  /** The content each post gets in the update step. */
  readonly newContent: string[];
}

/** `n` posts and the updated contents of the first `updated`, the same for a given seed on every run. */
export function makePosts(n: number, seed: number, updated = n): PostSet {
  const random = seeded(seed);
  const posts = Array.from({ length: n }, (_, i) => ({
    author: makeText(random, 5, 20),
    topic: `t${Math.floor(random() * TOPICS)}`,
    content: makeText(random, 50, 2000),
    createdAt: EPOCH + i * 1000,
  }));
  const newContent = Array.from({ length: Math.min(n, updated) }, () => makeText(random, 50, 2000));
  return { posts, newContent };
}

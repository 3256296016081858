/**
 * What the string a Date is written as costs the client on its way to Redis: dateCodec's `String(time)`
 * against the two-part form it used before (the millions of milliseconds, then six padded digits: half the
 * time to make, but a rope of two strings, not one flat string). Each post of the suite's shape goes the way a
 * bulk create sends it: the HSET with the value and the ZADD of the createdAt index with it as the score, each
 * encoded by node-redis's own encoder (a module of @redis/client, the package `redis` is made of) and each
 * piece made bytes (Buffer.from) as the socket's write makes them, then the snapshot's parse of the value back
 * to a number. No Redis: client CPU only. The two forms take turns, round after round; medians of the rounds
 * after the first.
 *
 *   npx ts-node --transpile-only --project tsconfig.json bench/date-encoding.ts [--n=100000] [--rounds=12]
 */
import encodeCommand from '@redis/client/dist/lib/RESP/encoder';
import { dateCodec } from '../src/codecs/date-codec';
import { positiveInteger } from './support/args';
import { check, median } from './support/measure';
import { printTable } from './support/table';
import { makePosts } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);
const ROUNDS = positiveInteger('rounds', 'ROUNDS', 12);

/** The form dateCodec wrote before: for the times of the last 50 years, two small integers joined. */
function twoParts(time: number): string {
  if (time < 1e6 || time >= 2 ** 31 * 1e6) return String(time);
  const millions = Math.floor(time / 1e6);
  return `${millions}${String(time - millions * 1e6).padStart(6, '0')}`;
}

const FORMS: ReadonlyArray<[string, (date: Date) => string]> = [
  ['String(time), as dateCodec writes it', (date) => dateCodec.encode(date)],
  ['two parts (millions, six digits)', (date) => twoParts(date.getTime())],
];

const { posts } = makePosts(N, 7, 0);
const dates = posts.map((post) => new Date(post.createdAt));

/** Nanoseconds per post for one pass over the posts with `write` making each date's string. */
function pass(write: (date: Date) => string): number {
  let bytes = 0;
  let parsed = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const post = posts[i];
    const id = String(i + 1);
    const key = `bench:{SuitePost}:obj:${id}`;
    const created = write(dates[i]);
    const hset = ['HSET', key, '#id', id, 'author', post.author, 'topic', post.topic, 'content', post.content, 'createdAt', created];
    for (const chunk of encodeCommand(hset)) bytes += Buffer.from(chunk).length;
    for (const chunk of encodeCommand(['ZADD', 'bench:{SuitePost}:idx:createdAt', created, id])) bytes += Buffer.from(chunk).length;
    parsed += Number(created) === post.createdAt ? 1 : 0;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / N;
  check(parsed === N && bytes > 0, `a form wrote a time it does not read back (${N - parsed} of ${N})`);
  return elapsed;
}

const times: number[][] = FORMS.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  FORMS.forEach(([, write], f) => {
    const ns = pass(write);
    if (round > 0) times[f].push(ns);
  });
}
console.log(`${N.toLocaleString('en-US')} posts, ${ROUNDS} rounds (the first not counted), Node ${process.version}`);
const base = median(times[0]);
printTable(
  ['form', 'ns per post (median)', 'range', 'against String(time)'],
  ['left', 'right', 'right', 'right'],
  FORMS.map(([name], f) => {
    const mid = median(times[f]);
    return [
      name,
      mid.toFixed(0),
      `${Math.min(...times[f]).toFixed(0)} to ${Math.max(...times[f]).toFixed(0)}`,
      `${(mid - base >= 0 ? '+' : '') + (mid - base).toFixed(0)} ns`,
    ];
  }),
);

import { Attr, BaseEntity, Index, Model } from '../../src';
import { compoundPart, compoundPrefix, idOfCompoundMember } from '../../src/keys/compound-member';
import type { Client } from '../support/bench-redis';
import type { KindWorkload } from './query-kinds';

/**
 * Tag and compound index queries (K5..K7), each against the hand-written node-redis commands on redis-record's
 * own keys, as query-kinds.ts times the others. Their posts live in a model of their own, loaded here with
 * saveMany from the benchmark's seeded posts (topic, score), each given 1 to 4 of 20 tags: the query benchmark's
 * own model, which nohm's answers are compared with, is left as it is.
 */
@Model({ name: 'QueryBenchTagged' })
@Index(['topic', 'score'])
class TaggedPost extends BaseEntity {
  @Attr() topic!: string;
  @Attr() score!: number;
  @Attr({ type: 'json' }) @Index({ each: true }) tags!: string[];
}

const TAGS = Array.from({ length: 20 }, (_, t) => `g${t}`);

/** Loads `posts` (the benchmark's, from the first) as tagged posts, up to `count`; returns the workloads. */
export async function tagCompoundWorkloads(
  posts: ReadonlyArray<{ readonly topic: string; readonly score: number }>,
  count: number,
  raw: Client,
  prefix: string,
): Promise<KindWorkload[]> {
  const base = `${prefix}:{QueryBenchTagged}`;
  const loaded = await TaggedPost.count();
  for (let start = loaded; start < count; start += 1000) {
    const batch = posts.slice(start, Math.min(count, start + 1000)).map((post, i) => ({
      topic: post.topic,
      score: post.score,
      // 1 to 4 tags, spread by the post's place and score (deterministic, as the posts are)
      tags: [...new Set(Array.from({ length: 1 + ((start + i) % 4) }, (_, k) => TAGS[(post.score * (k + 3) + k) % TAGS.length]))],
    }));
    await TaggedPost.saveMany(batch);
  }
  const sameIds = (a: unknown, b: unknown) => JSON.stringify([...(a as string[])].sort()) === JSON.stringify([...(b as string[])].sort());
  // K7's window: topic 't3', score 100..200, read backwards (score desc, ties by id desc)
  const prefixBytes = compoundPrefix([compoundPart('t3', false)]);
  const bound = (score: string) => Buffer.concat([prefixBytes, compoundPart(score, true)]);
  const max = Buffer.concat([Buffer.from('('), bound('200'), Buffer.from([0, 1])]);
  const min = Buffer.concat([Buffer.from('['), bound('100')]);
  // every member of topic 't3': its prefix ends with \0\0, and \0\1 is the next byte string up
  const topicMin = Buffer.concat([Buffer.from('['), prefixBytes]);
  const topicMax = Buffer.concat([Buffer.from('('), prefixBytes.subarray(0, -1), Buffer.from([1])]);
  return [
    {
      label: "K5 findIds tags hasAny ['g1', 'g2'] AND topic = 't3'",
      record: () => TaggedPost.findIds({ tags: { hasAny: ['g1', 'g2'] }, topic: 't3' } as never),
      async hand() {
        // the topic has no index of its own here: its equality is a prefix of the compound index's members
        const [tagged, inTopic] = await Promise.all([
          raw.sUnion([`${base}:idx:tags:g1`, `${base}:idx:tags:g2`]),
          raw.zRange(`${base}:lex:topic+score`, topicMin, topicMax, { BY: 'LEX' }),
        ]);
        const topicIds = new Set(inTopic.map((member) => idOfCompoundMember(Buffer.from(member, 'latin1'))));
        return tagged.filter((id) => topicIds.has(id));
      },
      same: sameIds,
    },
    {
      label: "K6 count tags hasAll ['g1', 'g7']",
      record: () => TaggedPost.count({ tags: { hasAll: ['g1', 'g7'] } } as never),
      hand: async () => Number(await raw.sInterCard([`${base}:idx:tags:g1`, `${base}:idx:tags:g7`])),
      same: (a, b) => a === b,
    },
    {
      label: "K7 findIds topic = 't3' AND score 100..200 by score desc (compound index)",
      record: () => TaggedPost.findIds({ topic: 't3', score: { gte: 100, lte: 200 } }, { orderBy: { score: 'desc' } }),
      async hand() {
        const members = await raw.zRange(`${base}:lex:topic+score`, max, min, { BY: 'LEX', REV: true });
        return members.map((member) => idOfCompoundMember(Buffer.from(member, 'latin1')));
      },
      same: (a, b) => JSON.stringify(a) === JSON.stringify(b),
    },
  ];
}

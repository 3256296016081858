import { ModelKeys } from '../../keys/model-keys';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { pushSpecs } from '../index-specs';
import { scripts } from '../scripts';

/** rank.lua: how many objects come before one in an ordered index (see its header). */
export interface RankInput {
  /** The keys of the shard the count is made in (the object's own, for `object`). */
  readonly keys: ModelKeys;
  readonly id: string;
  /** A score or lex index of the model (scoped or not). */
  readonly index: IndexDescriptor;
  readonly desc: boolean;
  /** Ids are sequence numbers: ties ordered numerically. */
  readonly sequenceIds: boolean;
  /**
   * Undefined: the object's own position, from its stored values. Else the values of an object of another shard
   * (each undefined when absent): the count of objects before it in this shard.
   */
  readonly values?: { readonly value: string | undefined; readonly scope: string | undefined };
}

/** `object`: the position, or null (no such object, or in no such index). `value`: the count before, and the ties to order. */
export type RankReply = number | null | { readonly before: number; readonly ties: string[] } | undefined;

const given = (value: string | undefined) => (value === undefined ? '' : `=${value}`);

export const rankScript: EntryScript<RankInput, RankReply> = {
  function: () => scripts.rank(),
  keys: ({ keys }) => [keys.all, keys.base],
  args({ id, index, desc, sequenceIds, values }) {
    const spec: string[] = [];
    pushSpecs(spec, [index]);
    // pushSpecs leads with the count of specs; the header takes one spec
    const args = [id, ...spec.slice(1)];
    args.push(desc ? '1' : '0', sequenceIds ? '1' : '0', values ? 'value' : 'object');
    if (values) args.push(given(values.value), given(values.scope));
    return args;
  },
  reply(reply, { values }) {
    if (!values) return reply === null || reply === undefined || reply === false ? null : Number(reply);
    if (reply === null || reply === undefined || reply === false) return undefined;
    const [before, ...ties] = reply as unknown[];
    return { before: Number(before), ties: ties.map(String) };
  },
};

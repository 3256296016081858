import { numberCodec } from '../../codecs/number-codec';
import { IndexDescriptor } from '../../model/index-descriptor';
import { EntryScript } from '../entry-script';
import { pushSpecs } from '../index-specs';
import { ModelArgs, pushTrimSpecs } from '../model-args';
import type { IncrementOutcome } from '../outcomes';
import { scripts } from '../scripts';

/** increment.lua: add to a counter attribute of one live object, moving its index entries (see its header). */
export interface IncrementInput {
  readonly model: ModelArgs;
  readonly id: string;
  readonly field: string;
  readonly amount: number;
  /** The indexes on or scoped by the counter. */
  readonly touching: readonly IndexDescriptor[];
}

export const incrementScript: EntryScript<IncrementInput, IncrementOutcome> = {
  function: () => scripts.increment(),
  keys: ({ model: { keys }, id }) => [keys.all, keys.object(id), keys.base],
  args({ model, id, field, amount, touching }) {
    // the cap moves only when it ranks by this counter
    const capped = model.capField === field;
    const args: Array<string | Buffer> = [
      id,
      field,
      numberCodec.encode(amount), // '-0' for -0, which String() writes as '0'
      capped ? model.capKey : '',
      capped ? model.capKeep : '',
      model.capOrder,
      model.sequenceIds,
    ];
    pushSpecs(args, touching);
    // a trim's evictions of objects without a memo
    pushTrimSpecs(args, model, capped);
    return args;
  },
  reply(reply) {
    if (Array.isArray(reply)) return reply[0] === 'unreadable' ? { unreadable: String(reply[1]) } : { outOfRange: true };
    return reply === null ? { gone: true } : { stored: String(reply) };
  },
};

import { ModelKeys } from '../keys/model-keys';
import { ModelDescriptor } from '../model/model-descriptor';

/** save.lua's id form: '0' given ids, '1' sequence ids, 'n:s' the sequence of shard s of n. */
export function idForm(model: ModelDescriptor, keys: ModelKeys): string {
  if (model.idStrategy !== 'sequence') return '0';
  return keys.shard === undefined ? '1' : `${keys.shard.count}:${keys.shard.index}`;
}

/** New objects of a sharded model go to its shards in turn (from a random start, so processes spread too). */
const turns = new WeakMap<ModelDescriptor, number>();
export function nextShard(model: ModelDescriptor): number {
  if (model.shards === 1) return 0;
  const turn = turns.get(model) ?? Math.floor(Math.random() * model.shards);
  turns.set(model, (turn + 1) % model.shards);
  return turn;
}

import { ModelDescriptor } from '../model/model-descriptor';

/** New objects of a sharded model go to its shards in turn (from a random start, so processes spread too). */
const turns = new WeakMap<ModelDescriptor, number>();
export function nextShard(model: ModelDescriptor): number {
  if (model.shards === 1) return 0;
  const turn = turns.get(model) ?? Math.floor(Math.random() * model.shards);
  turns.set(model, (turn + 1) % model.shards);
  return turn;
}

import { Client, Entity, EntityId, Repository, Schema } from 'redis-om';
import type { PostData } from '../workloads/posts';
import { inFlight, packageVersion, Peer } from './peer';

/** Saves in flight at once for the bulk workload: redis-om has no batch write. */
const BULK_IN_FLIGHT = 1000;

/**
 * redis-om 0.4 with hash storage, on its own node-redis 4 client. Without RediSearch it has no index and no
 * count, so it takes part in save, fetch and remove only; its ids are ULIDs it makes itself.
 */
export async function redisOmPeer(url: string, prefix: string): Promise<Peer> {
  const client = await new Client().open(url);
  const schemaName = `${prefix}:OmPost`;
  const schema = new Schema(
    schemaName,
    { author: { type: 'string' }, topic: { type: 'string' }, content: { type: 'string' }, createdAt: { type: 'date' } },
    { dataStructure: 'HASH' },
  );
  const repository: Repository = client.fetchRepository(schema);
  let ids: string[] = [];
  let loaded: Entity[] = [];

  const create = async (post: PostData, i: number) => {
    const saved = await repository.save({ ...post, createdAt: new Date(post.createdAt) });
    const id = (saved as Record<symbol, unknown>)[EntityId as symbol];
    if (typeof id !== 'string') throw new Error('redis-om: save returned no id');
    ids[i] = id;
  };

  return {
    name: 'redis-om',
    version: packageVersion('redis-om'),
    notes: 'hash storage, no RediSearch: no index and no count; save: MULTI UNLINK + HSET of every field; fetch: HGETALL; remove: UNLINK',
    keyPattern: `${schemaName}:*`,
    keyRole: () => 'object',
    reset(size) {
      ids = new Array(size);
      loaded = new Array(size);
    },
    create,
    async load(i) {
      const entity = await repository.fetch(ids[i]);
      if (entity.content === undefined) throw new Error(`redis-om: post ${ids[i]} is missing`);
      loaded[i] = entity;
      return entity.content as string;
    },
    async update(content, i) {
      loaded[i].content = content;
      await repository.save(loaded[i]);
    },
    async remove(i) {
      await repository.remove(ids[i]);
      loaded[i] = undefined as unknown as Entity;
    },
    bulkCreate: (posts, from, to) => inFlight(from, to, BULK_IN_FLIGHT, (i) => create(posts[i], i)),
    bulkMethod: () => `repository.save(), ${BULK_IN_FLIGHT} in flight`,
    close: () => client.close(),
  };
}

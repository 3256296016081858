import { NohmClass } from 'nohm';
import { dirname } from 'path';
import type { PostData } from '../workloads/posts';
import { inFlight, packageVersion, Peer } from './peer';

/** ioredis 4 (the client nohm documents) ships no typings; the little used here. */
export interface IORedisClient {
  readonly status: string;
  connect(): Promise<void>;
  quit(): Promise<unknown>;
  disconnect(): void;
  scard(key: string): Promise<number>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Where nohm's own ioredis is: the 4.x it depends on and documents, not the project's ioredis (5.x, a client
 * redis-record itself runs over), which npm may hoist above it.
 */
function nohmIORedisPath(file: string): string {
  return require.resolve(file, { paths: [dirname(require.resolve('nohm/package.json'))] });
}

/** The ioredis nohm depends on. */
export function nohmIORedis(): new (url: string, options: { lazyConnect: boolean }) => IORedisClient {
  return require(nohmIORedisPath('ioredis'));
}

/** The version of the ioredis nohm depends on. */
export function nohmIORedisVersion(): string {
  return (require(nohmIORedisPath('ioredis/package.json')) as { version: string }).version;
}

/** A client of nohm's own ioredis on `url`, connected, its errors logged. */
export async function ioredisClient(url: string): Promise<IORedisClient> {
  const IORedis = nohmIORedis();
  const client = new IORedis(url, { lazyConnect: true });
  client.on('error', (error) => console.error('ioredis client:', error.message));
  await client.connect();
  return client;
}

export async function closeIORedis(client: IORedisClient): Promise<void> {
  if (client.status === 'ready') await client.quit();
  else client.disconnect();
}

/** The part of a loaded nohm model the workload uses. */
interface NohmPost {
  property(name: string, value?: unknown): unknown;
  save(): Promise<void>;
  remove(): Promise<void>;
}

/** Creates in flight at once for the bulk workload: nohm has no batch write. */
const BULK_IN_FLIGHT = 1000;

/**
 * nohm 3 over ioredis, its own instance under `prefix` (so it shares no global state with the query workload):
 * the same post with topic and createdAt indexed, sequence ids.
 */
export async function nohmPeer(url: string, prefix: string): Promise<Peer> {
  const client = await ioredisClient(url);
  const nohm = new NohmClass({ prefix, client: client as never, publish: false });
  const Post = nohm.model('SuitePost', {
    properties: {
      author: { type: 'string' },
      topic: { type: 'string', index: true },
      content: { type: 'string' },
      createdAt: { type: 'timestamp', index: true },
    },
    idGenerator: 'increment',
  });
  const idSet = `${prefix}:idsets:SuitePost`;
  let ids: string[] = [];
  let loaded: NohmPost[] = [];

  const create = async (post: PostData, i: number) => {
    const model = new Post();
    model.property(post as unknown as Record<string, unknown>);
    await model.save();
    ids[i] = String(model.id);
  };

  return {
    name: 'nohm',
    version: packageVersion('nohm'),
    notes: `over ioredis ${nohmIORedisVersion()}; save/load/remove as documented; count: SCARD of its id set (nohm has no count)`,
    keyPattern: `${prefix}:*`,
    keyRole: (key) => (key.startsWith(`${prefix}:hash:`) ? 'object' : 'index'),
    reset(size) {
      ids = new Array(size);
      loaded = new Array(size);
    },
    create,
    count: () => client.scard(idSet),
    async load(i) {
      const model = (await Post.load(ids[i])) as unknown as NohmPost;
      loaded[i] = model;
      return model.property('content') as string;
    },
    async update(content, i) {
      loaded[i].property('content', content);
      await loaded[i].save();
    },
    async remove(i) {
      await loaded[i].remove();
      loaded[i] = undefined as unknown as NohmPost;
    },
    bulkCreate: (posts, from, to) => inFlight(from, to, BULK_IN_FLIGHT, (i) => create(posts[i], i)),
    bulkMethod: () => `new model + save(), ${BULK_IN_FLIGHT} in flight`,
    close: () => closeIORedis(client),
  };
}

import { createCluster } from 'redis';
import { connect, disconnect } from '../../src';
import { commandsFor, scanKeys, unlinkKeys } from './cluster-view';
import { PrivateCluster, startPrivateCluster } from '../../tools/private-cluster';
import { ApplicationClient, applicationCluster, closeApplicationClient } from './clients/test-client';
import { RawClient, uniquePrefix } from './test-redis';

export type RawCluster = ReturnType<typeof createCluster>;

export interface TestCluster {
  readonly prefix: string;
  /** The raw cluster client seen as one server (SCAN over every master): what the test-side checkers take. */
  readonly raw: RawClient;
  /** The raw node-redis cluster client itself (masters, nodeClient, sendCommand by key). */
  readonly cluster: RawCluster;
  /** The root node URLs connect() was given. */
  readonly rootNodes: ReadonlyArray<{ url: string }>;
  /** The private cluster of this file (its nodes, to kill or inspect), undefined under REDIS_CLUSTER_URLS. */
  readonly servers: PrivateCluster | undefined;
}

/**
 * The root nodes of an existing cluster to test against (REDIS_CLUSTER_URLS: comma-separated redis:// URLs or
 * host:port), or undefined: then each test file starts its own private 3 masters + 3 replicas cluster.
 */
function clusterFromEnvironment(): Array<{ url: string }> | undefined {
  const list = process.env.REDIS_CLUSTER_URLS;
  if (!list) return undefined;
  return list.split(',').map((entry) => ({ url: /^rediss?:\/\//.test(entry.trim()) ? entry.trim() : `redis://${entry.trim()}` }));
}

/** Every key under `prefix:` on every master (SCAN, never KEYS), sorted. */
export async function clusterKeysUnder(cluster: unknown, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of scanKeys(cluster, { MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(...page);
  return keys.sort();
}

/** How many keys under `prefix:` each master holds (by master address), to show data spread over the cluster. */
export async function keysPerMaster(cluster: RawCluster, prefix: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await Promise.all(
    cluster.masters.map(async (master) => {
      const node = await cluster.nodeClient(master);
      let n = 0;
      for await (const page of node.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) n += page.length;
      counts.set(`${master.host}:${master.port}`, n);
    }),
  );
  return counts;
}

/**
 * The Redis Cluster twin of useTestRedis(): a cluster for the test file (its own private one, or
 * REDIS_CLUSTER_URLS), redis-record connected to it with connect({ cluster }) under a fresh prefix, a raw
 * cluster client to look at keys, and every key under the prefix deleted from every master afterwards.
 * `connectRecord: false` leaves connecting to the test (e.g. to pass options); `own: true` starts a private
 * cluster even under REDIS_CLUSTER_URLS (a test that kills nodes); `nodeTimeoutMs` is its cluster-node-timeout.
 * Under REDIS_CLIENT=ioredis or iovalkey (test-client.ts) redis-record is given a `Cluster` of that library.
 */
export function useTestCluster(options: { connectRecord?: boolean; nodeTimeoutMs?: number; own?: boolean } = {}): TestCluster {
  const context = {
    prefix: uniquePrefix('c'),
    raw: undefined as unknown as RawClient,
    cluster: undefined as unknown as RawCluster,
    rootNodes: [] as Array<{ url: string }>,
    servers: undefined as PrivateCluster | undefined,
  };
  let application: ApplicationClient | undefined;
  beforeAll(async () => {
    const given = options.own ? undefined : clusterFromEnvironment();
    if (given) context.rootNodes = given;
    else {
      context.servers = await startPrivateCluster(3, 1, options.nodeTimeoutMs);
      context.rootNodes = [...context.servers.rootNodes];
    }
    context.cluster = createCluster({ rootNodes: context.rootNodes });
    context.cluster.on('error', () => undefined);
    await context.cluster.connect();
    context.raw = commandsFor(context.cluster) as unknown as RawClient;
    if (options.connectRecord !== false) {
      application = applicationCluster(context.rootNodes);
      await connect(
        application
          ? { client: application, prefix: context.prefix }
          : { cluster: { rootNodes: context.rootNodes }, prefix: context.prefix },
      );
    }
  }, 300_000);
  afterAll(async () => {
    await disconnect();
    closeApplicationClient(application);
    if (context.cluster?.isOpen) {
      if (!context.servers) {
        await unlinkKeys(context.cluster, await clusterKeysUnder(context.cluster, context.prefix));
        await context.cluster.unlink([`${context.prefix}#models`]);
      }
      await context.cluster.close();
    }
    await context.servers?.stop();
  }, 60_000);
  return context;
}

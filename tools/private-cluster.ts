import { spawnSync } from 'child_process';
import { createConnection } from 'net';
import { PrivateRedis, startPrivateRedis } from './private-redis';

/**
 * A throwaway Redis Cluster for tests and benchmarks: `masters` masters with `replicasPerMaster` replicas
 * each, every node a private redis-server on a free port of 127.0.0.1 (cluster-enabled, no persistence),
 * formed with `redis-cli --cluster create`; stop() shuts every node down and removes their directories.
 */
export interface PrivateCluster {
  readonly nodes: readonly PrivateRedis[];
  readonly rootNodes: ReadonlyArray<{ url: string }>;
  stop(): Promise<void>;
}

/**
 * The reply of one command to the node on `port` (a raw RESP exchange, no client library): a bulk string, or
 * a simple string or error line; '' when the node cannot be reached.
 */
function ask(port: number, command: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (data) => {
      reply += data.toString();
      const header = reply.match(/^\$(\d+)\r\n/);
      if ((header && reply.length >= header[0].length + Number(header[1])) || (/^[+-]/.test(reply) && reply.includes('\r\n'))) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.on('error', () => resolve(''));
    setTimeout(() => {
      socket.destroy();
      resolve(reply);
    }, 1000);
  });
}

/**
 * The arguments of every node: cluster mode, and DEBUG allowed from 127.0.0.1 (tests make a replica sleep to
 * hold back replication). `nodeTimeoutMs` is cluster-node-timeout: how long a master may be unreachable before
 * its replica takes over (a failover test makes it short). A replica always may take over from its failed
 * master, however long it was disconnected (validity factor 0): a failover test kills a master right after
 * cutting its replica off.
 */
export function clusterNodeArguments(nodeTimeoutMs: number): string[] {
  return [
    '--cluster-enabled', 'yes',
    '--cluster-node-timeout', String(nodeTimeoutMs),
    '--cluster-config-file', 'nodes.conf',
    '--cluster-replica-validity-factor', '0',
    '--enable-debug-command', 'local',
  ];
}

/**
 * The cluster-node-timeout the nodes are formed with. It is also how long a node waits for the handshake of a
 * node it was told to meet before forgetting it, and `redis-cli --cluster create` sends each MEET once: a
 * handshake slower than a short timeout (a loaded machine) left a node out for good, and the create waited
 * for a join that never came. The timeout the caller asked for is set once the cluster is formed.
 */
const FORMING_NODE_TIMEOUT_MS = 15000;

export async function startPrivateCluster(masters = 3, replicasPerMaster = 1, nodeTimeoutMs = 2000): Promise<PrivateCluster> {
  const count = masters * (1 + replicasPerMaster);
  const nodes: PrivateRedis[] = [];
  try {
    for (let i = 0; i < count; i++) {
      nodes.push(await startPrivateRedis(clusterNodeArguments(Math.max(nodeTimeoutMs, FORMING_NODE_TIMEOUT_MS))));
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'],
      { encoding: 'utf8', timeout: 60000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    for (let i = 0; i < 200; i++) {
      const states = await Promise.all(nodes.map((node) => ask(node.port, 'CLUSTER INFO')));
      if (states.every((state) => state.includes('cluster_state:ok'))) break;
      if (i === 199) throw new Error('the cluster did not reach cluster_state:ok');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Ready when every replica has done its first sync (WAIT counts only replicas that are online).
    for (let i = 0; replicasPerMaster > 0; i++) {
      const states = await Promise.all(nodes.map((node) => ask(node.port, 'INFO replication')));
      const online = states.reduce((sum, state) => sum + (state.match(/state=online/g)?.length ?? 0), 0);
      if (online >= masters * replicasPerMaster) break;
      if (i === 300) throw new Error('the replicas did not come online');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const set = await Promise.all(nodes.map((node) => ask(node.port, `CONFIG SET cluster-node-timeout ${nodeTimeoutMs}`)));
    if (!set.every((reply) => reply.startsWith('+OK'))) throw new Error(`cluster-node-timeout ${nodeTimeoutMs} was refused: ${set.join(' ')}`);
    return {
      nodes,
      rootNodes: nodes.slice(0, masters).map((node) => ({ url: node.url })),
      stop: async () => {
        await Promise.all(nodes.map((node) => node.stop()));
      },
    };
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
}

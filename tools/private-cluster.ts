import { spawnSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { createConnection } from 'net';
import { join } from 'path';
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
    '--cluster-enabled',
    'yes',
    '--cluster-node-timeout',
    String(nodeTimeoutMs),
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-replica-validity-factor',
    '0',
    '--enable-debug-command',
    'local',
    // relative to the node's --dir (given before these)
    '--logfile',
    'redis.log',
  ];
}

/**
 * The cluster-node-timeout the nodes are formed with; the one the caller asked for is set once the cluster is
 * formed. A node forgets a node it was told to meet when their handshake outlasts this timeout (at least 1 s),
 * and `redis-cli --cluster create` sends each MEET once: on a loaded machine a short timeout can leave a node
 * out, and the create then waits for a join that never comes.
 */
const FORMING_NODE_TIMEOUT_MS = 15000;
/** How long `redis-cli --cluster create` may take (a few seconds, normally), and how many clusters are tried. */
const CREATE_TIMEOUT_MS = 30000;
const FORMING_ATTEMPTS = 2;

/** The last lines of each node's log (clusterNodeArguments writes it to redis.log in the node's directory). */
function nodeLogs(nodes: readonly PrivateRedis[]): string {
  return nodes
    .map((node) => {
      const path = join(node.dir, 'redis.log');
      const lines = existsSync(path) ? readFileSync(path, 'utf8').trimEnd().split('\n').slice(-12) : ['(no log)'];
      return `node 127.0.0.1:${node.port}:\n  ${lines.join('\n  ')}`;
    })
    .join('\n');
}

/** Forms the cluster of `nodes`; resolves to why it failed, or undefined once it is ready. */
async function form(nodes: readonly PrivateRedis[], masters: number, replicasPerMaster: number): Promise<string | undefined> {
  const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
  const created = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'],
    { encoding: 'utf8', timeout: CREATE_TIMEOUT_MS },
  );
  if (created.status !== 0) {
    const how = created.error ? `${created.error.message}, ` : '';
    return `redis-cli --cluster create failed (${how}exit ${created.status}): ${created.stdout}${created.stderr}`;
  }
  for (let i = 0; ; i++) {
    const states = await Promise.all(nodes.map((node) => ask(node.port, 'CLUSTER INFO')));
    if (states.every((state) => state.includes('cluster_state:ok'))) break;
    if (i === 199) return 'the cluster did not reach cluster_state:ok';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Ready when every replica has done its first sync (WAIT counts only replicas that are online).
  for (let i = 0; replicasPerMaster > 0; i++) {
    const states = await Promise.all(nodes.map((node) => ask(node.port, 'INFO replication')));
    const online = states.reduce((sum, state) => sum + (state.match(/state=online/g)?.length ?? 0), 0);
    if (online >= masters * replicasPerMaster) break;
    if (i === 300) return 'the replicas did not come online';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

export async function startPrivateCluster(masters = 3, replicasPerMaster = 1, nodeTimeoutMs = 2000): Promise<PrivateCluster> {
  const count = masters * (1 + replicasPerMaster);
  let nodes: PrivateRedis[] = [];
  try {
    for (let attempt = 1; ; attempt++) {
      for (let i = 0; i < count; i++) {
        nodes.push(await startPrivateRedis(clusterNodeArguments(Math.max(nodeTimeoutMs, FORMING_NODE_TIMEOUT_MS))));
      }
      const failure = await form(nodes, masters, replicasPerMaster);
      if (failure === undefined) break;
      // new nodes on new ports: the nodes of a failed create keep the half-made cluster in their nodes.conf
      const message = `${failure}\n${nodeLogs(nodes)}`;
      await Promise.all(nodes.map((node) => node.stop()));
      nodes = [];
      if (attempt === FORMING_ATTEMPTS) throw new Error(message);
      console.warn(`private cluster: forming failed, trying again with new nodes\n${message}`);
    }
    const set = await Promise.all(nodes.map((node) => ask(node.port, `CONFIG SET cluster-node-timeout ${nodeTimeoutMs}`)));
    if (!set.every((reply) => reply.startsWith('+OK')))
      throw new Error(`cluster-node-timeout ${nodeTimeoutMs} was refused: ${set.join(' ')}`);
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

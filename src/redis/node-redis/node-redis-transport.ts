import { CommandError, errorCode } from '../../errors/command-errors';
import { toResp2 } from '../resp2';
import type { Argument, Command, SendOptions, ServerNode, Transport } from '../transport';
import { fromNodeRedisError, isNodeRedisErrorReply } from './node-redis-errors';
import { isNodeRedisCluster, NodeRedisClient, NodeRedisCluster } from './node-redis-client';
import { Watchers } from '../watchers';

// RESP3 type bytes (node-redis's RESP_TYPES): replies in RESP2 shapes whatever protocol the client speaks
const RESP = { MAP: 37, SET: 126, DOUBLE: 44, BIG_NUMBER: 40, SIMPLE_STRING: 43, BLOB_STRING: 36, VERBATIM_STRING: 61 };

function typeMapping(strings: typeof String | typeof Buffer): object {
  return {
    [RESP.MAP]: Array,
    [RESP.SET]: Array,
    [RESP.DOUBLE]: strings,
    [RESP.BIG_NUMBER]: strings,
    [RESP.SIMPLE_STRING]: strings,
    [RESP.BLOB_STRING]: strings,
    [RESP.VERBATIM_STRING]: strings,
  };
}

/** The per-command options: made once, as every command takes them. */
const AS_STRINGS = { typeMapping: typeMapping(String) };
const AS_BUFFERS = { typeMapping: typeMapping(Buffer) };
const optionsFor = (buffers: boolean | undefined) => (buffers ? AS_BUFFERS : AS_STRINGS);

function settled(reply: unknown, command: Command, buffers: boolean): unknown {
  if (reply instanceof Error) return fromNodeRedisError(reply);
  return toResp2(reply, command, buffers);
}

function sendOn(client: NodeRedisClient, command: Command, options?: SendOptions): Promise<unknown> {
  const buffers = options?.buffers === true;
  return client.sendCommand(command as Argument[], optionsFor(buffers)).then(
    (reply) => toResp2(reply, command, buffers),
    (error: unknown) => Promise.reject(fromNodeRedisError(error, client.isReady)),
  );
}

function addressOf(client: NodeRedisClient): string {
  const socket = client.options?.socket;
  return socket?.path ?? `${socket?.host ?? 'localhost'}:${socket?.port ?? 6379}`;
}

/**
 * MULTI, the commands, EXEC on one connection, as raw commands sharing a `chainId` (node-redis writes a chain
 * together, and rejects what is left of it when the connection drops part way). Not client.multi(): its EXEC
 * ignores the type mapping, so replies would come in node-redis's default shapes.
 */
async function transactionOn(node: NodeRedisClient, commands: readonly Command[], buffers: boolean): Promise<unknown[]> {
  if (commands.length === 0) return [];
  const chainId = Symbol('transaction');
  const sent = [
    node.sendCommand(['MULTI'], { chainId }),
    ...commands.map((command) => node.sendCommand(command as Argument[], { chainId })),
    node.sendCommand(['EXEC'], { chainId, ...optionsFor(buffers) }),
  ];
  const results = await Promise.allSettled(sent);
  const exec = results[results.length - 1];
  if (exec.status === 'fulfilled') {
    if (!Array.isArray(exec.value)) throw new CommandError('EXECABORT', 'EXECABORT the transaction did not run (EXEC answered null)');
    return exec.value.map((reply, i) => settled(reply, commands[i], buffers));
  }
  const lost = results.find(
    (result): result is PromiseRejectedResult => result.status === 'rejected' && !isNodeRedisErrorReply(result.reason),
  );
  if (lost) throw fromNodeRedisError(lost.reason);
  const refused = results.slice(0, -1).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const message = (exec.reason as Error).message;
  throw new CommandError(errorCode(message), refused ? `${message} (${(refused.reason as Error).message})` : message, {
    cause: refused?.reason ?? exec.reason,
  });
}

/** Commands issued in one tick: node-redis writes those queued for a connection together. */
async function pipelined(send: (command: Command, i: number) => Promise<unknown>, commands: readonly Command[]): Promise<unknown[]> {
  const results = await Promise.allSettled(commands.map(send));
  return results.map((result, i) => {
    if (result.status === 'fulfilled') return toResp2(result.value, commands[i], false);
    const error = fromNodeRedisError(result.reason);
    if (!(error instanceof CommandError)) throw error;
    return error;
  });
}

/** A Transport over a node-redis client or cluster client; `owned`: close() closes it. */
export function nodeRedisTransport(client: NodeRedisClient | NodeRedisCluster, owned: boolean): Transport {
  return isNodeRedisCluster(client) ? clusterTransport(client, owned) : clientTransport(client, owned);
}

function clientTransport(client: NodeRedisClient, owned: boolean): Transport {
  const watchers = new Watchers();
  let ready = client.isReady;
  const onReady = () => {
    if (ready) watchers.fire();
    ready = true;
  };
  client.on('ready', onReady);
  watchers.stops.push(() => client.off('ready', onReady));
  const self: ServerNode = { address: addressOf(client), send: (command, options) => sendOn(client, command, options) };
  return {
    isCluster: false,
    send: (command, _key, options) => sendOn(client, command, options),
    transaction: (commands, _key, options) => transactionOn(client, commands, options?.buffers === true),
    pipeline: (commands) => pipelined((command) => client.sendCommand(command as Argument[], AS_STRINGS), commands),
    masters: async () => [self],
    waitReplicas: async (_key, replicas, timeoutMs) => Number(await sendOn(client, ['WAIT', String(replicas), String(timeoutMs)])),
    onReconnect: (listener) => watchers.add(listener),
    async close() {
      watchers.stop();
      if (owned && client.isOpen) await client.close();
    },
  };
}

function clusterTransport(cluster: NodeRedisCluster, owned: boolean): Transport {
  const watchers = new Watchers();
  // node-ready comes on every connection of a node's client: a node seen ready before has reconnected
  const seen = new Set(cluster.masters.filter((node) => node.client?.isReady).map((node) => `${node.host}:${node.port}`));
  const onNodeReady = (node: { host: string; port: number }) => {
    const address = `${node.host}:${node.port}`;
    if (seen.has(address)) watchers.fire();
    else seen.add(address);
  };
  cluster.on('node-ready', onNodeReady);
  watchers.stops.push(() => cluster.off('node-ready', onNodeReady));
  const nodeFor = (key: string) =>
    cluster.getNodeClientForKey(key, false).catch((error: unknown) => Promise.reject(fromNodeRedisError(error)));
  return {
    isCluster: true,
    send(command, key, options) {
      const buffers = options?.buffers === true;
      return cluster.sendCommand(key, false, command, optionsFor(buffers)).then(
        (reply) => toResp2(reply, command, buffers),
        (error: unknown) => Promise.reject(fromNodeRedisError(error)),
      );
    },
    async transaction(commands, key, options) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await transactionOn(await nodeFor(key), commands, options?.buffers === true);
        } catch (error) {
          // the slot moved and nothing ran: a keyed command through the cluster client refreshes its slot map
          if (attempt > 0 || !(error instanceof CommandError) || !/\((MOVED|ASK) |^(MOVED|ASK) /.test(error.message)) throw error;
          await cluster.sendCommand(key, false, ['EXISTS', key]).catch(() => undefined);
        }
      }
    },
    pipeline: (commands, keys) => pipelined((command, i) => cluster.sendCommand(keys?.[i], false, command, AS_STRINGS), commands),
    async masters() {
      return Promise.all(
        cluster.masters.map(async (master) => {
          const node = await cluster.nodeClient(master);
          return { address: master.address ?? `${master.host}:${master.port}`, send: (command, options) => sendOn(node, command, options) };
        }),
      );
    },
    // not cluster.sendCommand: node-redis sends WAIT to every master (its command policy) and answers the least
    waitReplicas: async (key, replicas, timeoutMs) =>
      Number(await sendOn(await nodeFor(key), ['WAIT', String(replicas), String(timeoutMs)])),
    onReconnect: (listener) => watchers.add(listener),
    async close() {
      watchers.stop();
      if (owned && cluster.isOpen) await cluster.close();
    },
  };
}

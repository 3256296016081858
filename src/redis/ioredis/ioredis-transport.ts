import calculateSlot from 'cluster-key-slot';
import { CommandError } from '../../errors/command-errors';
import { ConnectionError } from '../../errors/errors';
import { toResp2 } from '../resp2';
import type { Command, SendOptions, ServerNode, Transport } from '../transport';
import { Watchers } from '../watchers';
import { guardDrops } from './drop-guard';
import { addressOf, IoCluster, IoPipeline, IoRedis, namingOf, Naming, split } from './ioredis-client';
import { fromIoredisError, isIoredisReplyError, repliesOf } from './ioredis-errors';

/** A Transport over an ioredis (5 and later) or iovalkey `Redis` or `Cluster`; `owned`: close() quits it. */
export function ioredisTransport(client: IoRedis | IoCluster, owned: boolean): Transport {
  return new IoredisTransport(client, owned);
}

class IoredisTransport implements Transport {
  readonly isCluster: boolean;
  private readonly naming: Naming;
  private readonly watchers = new Watchers();
  private readonly wasReady = new Set<string>();
  private active = true;

  constructor(
    private readonly client: IoRedis | IoCluster,
    private readonly owned: boolean,
  ) {
    this.isCluster = client.isCluster;
    this.naming = namingOf(client);
    if (client.isCluster) {
      for (const node of client.nodes('all')) this.watch(node);
      const onNode = (node: IoRedis) => this.watch(node);
      client.on('+node', onNode);
      this.watchers.stops.push(() => client.off('+node', onNode));
    } else {
      this.watch(client);
    }
  }

  /** Watches one connection (the client, or a node of a cluster): its drops, and its reconnections. */
  private watch(redis: IoRedis): void {
    const address = addressOf(redis);
    if (redis.status === 'ready') this.wasReady.add(address);
    const onReady = () => {
      if (this.wasReady.has(address)) this.watchers.fire();
      else this.wasReady.add(address);
    };
    redis.on('ready', onReady);
    this.watchers.stops.push(
      guardDrops(redis, () => this.active),
      () => redis.off('ready', onReady),
    );
  }

  /** ioredis finds a command's keys itself (FCALL and EVALSHA too) and follows MOVED and ASK. */
  send(command: Command, _key?: string, options?: SendOptions): Promise<unknown> {
    return callOn(this.client, command, options?.buffers === true, this.naming);
  }

  async transaction(commands: readonly Command[], _key: string, options?: SendOptions): Promise<unknown[]> {
    const buffers = options?.buffers === true;
    const multi = this.client.multi();
    queue(multi, commands, buffers, this.naming);
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await multi.exec();
    } catch (error) {
      throw fromIoredisError(error); // EXECABORT: a command refused as it was queued
    }
    if (!results) throw new CommandError('EXECABORT', 'EXECABORT the transaction did not run (EXEC answered null)');
    return repliesOf(results, (reply, i) => toResp2(reply, commands[i], buffers));
  }

  async pipeline(commands: readonly Command[], keys?: ReadonlyArray<string | undefined>): Promise<unknown[]> {
    if (!this.client.isCluster)
      return repliesOf(await runPipeline(this.client, commands, this.naming), (reply, i) => toResp2(reply, commands[i], false));
    const cluster = this.client;
    // an ioredis cluster pipeline stays on one node: one pipeline per master, side by side
    const groups = new Map<string, number[]>();
    commands.forEach((_, i) => {
      const key = keys?.[i];
      const group = key === undefined ? '' : (cluster.slots[calculateSlot(key)]?.[0] ?? `slot:${calculateSlot(key)}`);
      const members = groups.get(group);
      if (members) members.push(i);
      else groups.set(group, [i]);
    });
    const results: Array<[Error | null, unknown]> = new Array(commands.length);
    await Promise.all(
      [...groups.values()].map(async (indexes) => {
        const replies = await runPipeline(
          cluster,
          indexes.map((i) => commands[i]),
          this.naming,
        );
        indexes.forEach((index, j) => (results[index] = replies[j]));
      }),
    );
    // a redirected command did not run: it is sent again alone, in order, and the cluster follows the redirection
    for (let i = 0; i < results.length; i++) {
      const [error] = results[i];
      if (error && isIoredisReplyError(error) && /^(MOVED|ASK) /.test(error.message)) {
        results[i] = await callOn(cluster, commands[i], false, this.naming).then(
          (reply): [null, unknown] => [null, reply],
          (failure: Error): [Error, null] => [failure, null],
        );
      }
    }
    return repliesOf(results, (reply, i) => toResp2(reply, commands[i], false));
  }

  async masters(): Promise<ServerNode[]> {
    const nodes = this.client.isCluster ? this.client.nodes('master') : [this.client];
    return nodes.map((node) => ({
      address: addressOf(node),
      send: (command, options) => callOn(node, command, options?.buffers === true, this.naming),
    }));
  }

  async waitReplicas(key: string, replicas: number, timeoutMs: number): Promise<number> {
    const node = this.client.isCluster ? masterOf(this.client, key) : this.client;
    if (!node) throw new ConnectionError(`no master is known for the slot of ${key}`);
    return Number(await callOn(node, ['WAIT', String(replicas), String(timeoutMs)], false, this.naming));
  }

  onReconnect(listener: () => void): () => void {
    return this.watchers.add(listener);
  }

  async close(): Promise<void> {
    this.active = false;
    this.watchers.stop();
    if (this.owned) await this.client.quit().catch(() => undefined);
  }
}

function callOn(target: IoRedis | IoCluster, command: Command, buffers: boolean, naming: Naming): Promise<unknown> {
  const [name, args] = split(command, naming);
  return (buffers ? target.callBuffer(name, ...args) : target.call(name, ...args)).then(
    (reply) => toResp2(reply, command, buffers),
    (error: unknown) => Promise.reject(fromIoredisError(error)),
  );
}

function queue(pipeline: IoPipeline, commands: readonly Command[], buffers: boolean, naming: Naming): void {
  for (const command of commands) {
    const [name, args] = split(command, naming);
    if (buffers) pipeline.callBuffer(name, ...args);
    else pipeline.call(name, ...args);
  }
}

async function runPipeline(
  target: IoRedis | IoCluster,
  commands: readonly Command[],
  naming: Naming,
): Promise<Array<[Error | null, unknown]>> {
  if (commands.length === 0) return [];
  const pipeline = target.pipeline();
  queue(pipeline, commands, false, naming);
  try {
    return (await pipeline.exec()) ?? [];
  } catch (error) {
    throw fromIoredisError(error);
  }
}

/** The connection to the master of `key`'s slot, the one the cluster wrote the key through. */
function masterOf(cluster: IoCluster, key: string): IoRedis | undefined {
  const address = cluster.slots[calculateSlot(key)]?.[0];
  return address === undefined ? undefined : cluster.nodes('master').find((node) => addressOf(node) === address);
}

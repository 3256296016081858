import { ArgumentError } from '../errors/errors';
import { describeValue } from '../util/describe-value';
import { isIoredis } from './ioredis/ioredis-client';
import { ioredisTransport } from './ioredis/ioredis-transport';
import { isNodeRedis } from './node-redis/node-redis-client';
import { nodeRedisTransport } from './node-redis/node-redis-transport';
import { RedisCommands } from './redis-commands';

const made = new WeakMap<object, RedisCommands>();

/**
 * The commands over a client an application hands to the admin functions: redis-record's own RedisCommands as
 * they are, or a connected node-redis, ioredis or iovalkey client (made once per client, which stays the
 * application's: nothing closes it).
 */
export function commandsFor(client: unknown): RedisCommands {
  if (client instanceof RedisCommands) return client;
  const given = (client as { client?: unknown } | null)?.client;
  if (given instanceof RedisCommands) return given; // a Connection
  let commands = made.get(client as object);
  if (commands) return commands;
  if (isNodeRedis(client)) commands = new RedisCommands(nodeRedisTransport(client, false));
  else if (isIoredis(client)) commands = new RedisCommands(ioredisTransport(client, false));
  else
    throw new ArgumentError(
      `expected the connection connect() returned, or a node-redis, ioredis or iovalkey client; got ${describeValue(client)}`,
    );
  made.set(client as object, commands);
  return commands;
}

import { ConnectionError } from '../errors/errors';
import type { RedisCommands } from './redis-commands';
import { everyMaster, NodeCommands } from './topology';

/**
 * Commands Redis added in 6.2, the oldest Redis redis-record supports, that it sends: its scripts read sorted
 * sets with ZRANGE's BYSCORE, BYLEX, REV and LIMIT (added with ZRANGESTORE, which query.lua also calls), and the
 * integrity checks read many members at once with ZMSCORE and SMISMEMBER.
 */
export const SINCE_REDIS_6_2 = ['ZRANGESTORE', 'ZMSCORE', 'SMISMEMBER'] as const;

/**
 * Refuses, before connect() writes anything, a server (or a cluster master) that lacks a command of
 * SINCE_REDIS_6_2: Redis older than 6.2, or a server with the command renamed or disabled. On such a server a
 * script would fail part way through, after some of its writes: a capped model's create stored, its trim
 * refused, and the create reported as failed. What the server has is read from `COMMAND INFO`, which names
 * unknown commands with a null; a server that does not answer it (COMMAND renamed, or refused to the ACL user)
 * is not refused, as nothing can be told.
 */
export async function refuseMissingCommands(client: RedisCommands): Promise<void> {
  await everyMaster(client, async (node) => {
    const missing = await missingCommands(node);
    if (missing.length === 0) return;
    const version = await serverVersion(node);
    throw new ConnectionError(
      `connect: the server${version ? ` (${version})` : ''} has no ${missing.join(', ')}: redis-record needs Redis 6.2 or later, or Valkey, and its scripts would fail part way through their writes without ${missing.length === 1 ? 'it' : 'them'}. Nothing was written`,
    );
  });
}

/** The commands of SINCE_REDIS_6_2 that `node` does not know; none when it cannot be told. */
async function missingCommands(node: NodeCommands): Promise<string[]> {
  let reply: unknown;
  try {
    reply = await node.sendCommand(['COMMAND', 'INFO', ...SINCE_REDIS_6_2]);
  } catch {
    return [];
  }
  if (!Array.isArray(reply) || reply.length !== SINCE_REDIS_6_2.length) return [];
  return SINCE_REDIS_6_2.filter((_, i) => reply[i] === null || reply[i] === undefined);
}

/** `Redis 6.0.16`, say, from INFO server, for the refusal's message; undefined when it cannot be read. */
async function serverVersion(node: NodeCommands): Promise<string | undefined> {
  try {
    const info = String(await node.sendCommand(['INFO', 'server']));
    const valkey = /^valkey_version:(\S+)/m.exec(info);
    if (valkey) return `Valkey ${valkey[1]}`;
    const redis = /^redis_version:(\S+)/m.exec(info);
    return redis ? `Redis ${redis[1]}` : undefined;
  } catch {
    return undefined;
  }
}

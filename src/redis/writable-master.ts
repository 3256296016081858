import { ErrorReply, MultiErrorReply } from 'redis';
import { ConnectionError } from '../errors/errors';
import type { RedisCommands } from './redis-commands';
import { isCluster, NodeCommands } from './topology';

/**
 * redis-record writes at connect() (the model definitions), in every write operation and in queries
 * (query.lua's temporary keys), so a standalone server must be a master: a replica is a ConnectionError of
 * connect(), whatever the prefix. A cluster client sends every command to a master; it is not checked.
 *
 * The role is read from HELLO without arguments (Redis 6 and later; it changes nothing of the connection and
 * every ACL user may run it). A server that does not answer it (older, or the command disabled) is not refused.
 */
export async function refuseReplica(client: RedisCommands): Promise<void> {
  if (isCluster(client)) return;
  let reply: unknown;
  try {
    reply = await (client as unknown as NodeCommands).sendCommand(['HELLO']);
  } catch {
    return;
  }
  const role = roleOf(reply);
  if (role !== undefined && role !== 'master') {
    throw new ConnectionError(
      `connect: the server is a ${role}, not a master (HELLO role: ${role}): redis-record writes at connect (model definitions), in every write and in queries (findBy's temporary keys); connect to the master`,
    );
  }
}

/**
 * A write refused with Redis's READONLY, as the ConnectionError it stands for: the server was made a replica
 * (REPLICAOF) after connect() found a master. A transaction holding such a refusal (MultiErrorReply, or
 * EXECABORT when a write was refused as it was queued) too; any other error as it is.
 */
export function demotedError(error: unknown): unknown {
  if (!(error instanceof ErrorReply) || !refusedAsReplica(error)) return error;
  return new ConnectionError(
    `the server is now a replica (READONLY): it was made one (REPLICAOF, a failover) after connect(), and refuses every write, queries included (findBy's temporary keys); nothing was written. connect to the master: ${error.message}`,
  );
}

function refusedAsReplica(error: ErrorReply): boolean {
  if (error instanceof MultiErrorReply) return [...error.errors()].some((inner) => inner instanceof ErrorReply && refusedAsReplica(inner));
  return error.message.startsWith('READONLY') || (error.message.startsWith('EXECABORT') && error.message.includes('READONLY'));
}

/** The `role` field of a HELLO reply: a flat array in RESP2, a map in RESP3. */
function roleOf(reply: unknown): string | undefined {
  let role: unknown;
  if (Array.isArray(reply)) {
    const at = reply.findIndex((field) => String(field) === 'role');
    role = at >= 0 ? reply[at + 1] : undefined;
  } else if (reply instanceof Map) {
    role = reply.get('role');
  } else if (typeof reply === 'object' && reply !== null) {
    role = (reply as Record<string, unknown>).role;
  }
  return role === undefined ? undefined : String(role);
}

import { CommandError, TransactionError } from '../errors/command-errors';
import { ConnectionError } from '../errors/errors';
import type { Transport } from './transport';

/**
 * redis-record writes at connect() (the model definitions), in every write operation and in queries
 * (query.lua's temporary keys), so a standalone server must be a master: a replica is a ConnectionError of
 * connect(), whatever the prefix. A cluster client sends every command to a master; it is not checked.
 *
 * The role is read from HELLO without arguments (Redis 6 and later; it changes nothing of the connection and
 * every ACL user may run it). A server that does not answer it (older, or the command disabled) is not refused.
 */
export async function refuseReplica(transport: Transport): Promise<void> {
  if (transport.isCluster) return;
  let reply: unknown;
  try {
    reply = await transport.send(['HELLO']);
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
 * (REPLICAOF) after connect() found a master. A transaction refused as it was queued (EXECABORT naming READONLY)
 * too; any other error as it is.
 */
export function demotedError(error: unknown): unknown {
  if (!(error instanceof CommandError) || !refusedAsReplica(error)) return error;
  return new ConnectionError(
    `the server is now a replica (READONLY): it was made one (REPLICAOF, a failover) after connect(), and refuses every write, queries included (findBy's temporary keys); nothing was written. connect to the master: ${error.message}`,
    { cause: error },
  );
}

function refusedAsReplica(error: CommandError): boolean {
  if (error instanceof TransactionError) return error.refusals.some(refusedAsReplica);
  return error.code === 'READONLY' || (error.code === 'EXECABORT' && error.message.includes('READONLY'));
}

/** The `role` field of a HELLO reply: a flat array of fields and values. */
function roleOf(reply: unknown): string | undefined {
  if (!Array.isArray(reply)) return undefined;
  const at = reply.findIndex((field) => String(field) === 'role');
  return at >= 0 ? String(reply[at + 1]) : undefined;
}

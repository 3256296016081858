import { ConnectionError } from '../errors/errors';
import type { ServerNode, Transport } from './transport';
import { serverNameOf } from './server-name';
import { everyMaster } from './topology';

/**
 * Commands Redis added in 6.2 that redis-record sends: its scripts read sorted sets with ZRANGE's BYSCORE,
 * BYLEX, REV and LIMIT (added with ZRANGESTORE, which query.lua also calls), and the integrity checks read many
 * members at once with ZMSCORE and SMISMEMBER.
 */
export const SINCE_REDIS_6_2 = ['ZRANGESTORE', 'ZMSCORE', 'SMISMEMBER'] as const;

/**
 * A script that only raises an error with a code: Redis 7.0 and later (and Valkey) reply with that error, its code
 * first. Redis 6.0 cannot compile the first line (script flags came with 7.0), and its error handler fails on an
 * error table, so its scripts' refusals would reach the client as untyped script errors. It reads and writes
 * nothing; `flags=no-writes` lets it run on a server out of memory too.
 */
export const ERROR_CODE_PROBE = "#!lua flags=no-writes\nerror({ err = 'RRPROBE scripts pass on the error codes they raise' })";

/** The code the probe raises, which a fit server's reply begins with. */
const PROBE_CODE = 'RRPROBE ';

/**
 * Refuses a server (or a cluster master) on which redis-record cannot keep its guarantees, as on Redis 6.0:
 * connect() asks before it writes anything, again after each reconnection of its client (Connection.fitServer),
 * and so does the command-line tool. Such a server is:
 * - one that lacks a command of SINCE_REDIS_6_2 (older than 6.2, or the command renamed or disabled): a script
 *   would fail part way through its writes (a capped model's create stored, its trim refused, and the create
 *   reported as failed). Read from `COMMAND INFO`, which names an unknown command with a null;
 * - one that does not pass on the error code a script raises (ERROR_CODE_PROBE), as Redis 7.0 does: every
 *   refusal of the scripts (a key of another type, a sequence at its end) would reach the caller as an untyped
 *   script error.
 *
 * What the server does is asked, not inferred from its version string, so a server that claims another
 * version (Valkey reports `redis_version:7.2.4`) is judged by what it does. A probe the server does not answer
 * (`COMMAND` renamed, a command refused to the ACL user, a script still running) refuses nothing: what it lacks
 * cannot be told. `when` begins the refusal's message: `connect`, or when else the server was asked.
 */
export async function refuseUnfitServer(transport: Transport, when = 'connect'): Promise<void> {
  await everyMaster(transport, async (node) => {
    const [missing, errorCodes] = await Promise.all([missingCommands(node), passesErrorCodes(node)]);
    const lacks: string[] = [];
    if (missing.length > 0) lacks.push(`has no ${missing.join(', ')}`);
    if (!errorCodes) lacks.push('does not pass on the error codes its scripts raise');
    if (lacks.length === 0) return;
    const version = await serverVersion(node);
    throw new ConnectionError(
      `${when}: the server${version ? ` (${version})` : ''} ${lacks.join(' and ')}: redis-record needs Redis 7.0 or later, or Valkey; on this server its scripts would fail part way through their writes, or without a typed error. Nothing was written`,
    );
  });
}

/** The commands of SINCE_REDIS_6_2 that `node` does not know; none when it cannot be told. */
async function missingCommands(node: ServerNode): Promise<string[]> {
  let reply: unknown;
  try {
    reply = await node.send(['COMMAND', 'INFO', ...SINCE_REDIS_6_2]);
  } catch {
    return [];
  }
  if (!Array.isArray(reply) || reply.length !== SINCE_REDIS_6_2.length) return [];
  return SINCE_REDIS_6_2.filter((_, i) => reply[i] === null || reply[i] === undefined);
}

/**
 * False when `node` ran ERROR_CODE_PROBE and lost its error code: a script error (`ERR Error compiling
 * script` or `ERR Error running script`) instead of the probe's. Any other answer (the probe's error, or one
 * that says nothing of scripts: NOPERM, BUSY, LOADING) is true: nothing to refuse.
 */
async function passesErrorCodes(node: ServerNode): Promise<boolean> {
  try {
    await node.send(['EVAL', ERROR_CODE_PROBE, '0']);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.startsWith(PROBE_CODE) || !/^ERR Error (compiling|running) script/.test(message);
  }
  // the probe only raises: a reply without an error passed nothing on
  return false;
}

/** `Redis 6.0.16`, say, from INFO server, for the refusal's message; undefined when it cannot be read. */
async function serverVersion(node: ServerNode): Promise<string | undefined> {
  try {
    return serverNameOf(String(await node.send(['INFO', 'server'])));
  } catch {
    return undefined;
  }
}

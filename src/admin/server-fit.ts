import { commandsFor } from '../redis/commands-for';
import { refuseUnfitServer } from '../redis/server-requirements';

/**
 * Rejects with a ConnectionError when redis-record cannot keep its guarantees on the server (or on a master of
 * the cluster): older than Redis 7.0, or without a command its scripts need. connect() asks this before it
 * writes anything; a tool that opens its own client asks it before repairing, since the repairs' scripts would
 * otherwise fail part way through their writes. A probe the server does not answer refuses nothing.
 */
export async function assertFitServer(client: unknown): Promise<void> {
  await refuseUnfitServer(commandsFor(client).transport);
}

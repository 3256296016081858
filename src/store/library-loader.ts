import { everyMaster } from '../redis/topology';
import type { Transport } from '../redis/transport';
import { allScripts } from './scripts';

/**
 * Loads every script once, pipelined, on every master, so that each operation is one EVALSHA from its first use. A
 * node that lost its scripts later (a restart, a replica promoted by a failover) gets them back through the
 * NOSCRIPT fallback of script.ts.
 */
export async function loadLibrary(transport: Transport): Promise<void> {
  await everyMaster(transport, (node) => Promise.all(allScripts().map((script) => node.send(['SCRIPT', 'LOAD', script.source]))));
}

import type { ServerNode, Transport } from './transport';

/**
 * Runs `work` on every master at once (a standalone server is its own only master): what a command that concerns
 * the whole server needs on a cluster, where a keyed command reaches one node only (FUNCTION LOAD, INFO, the
 * server checks).
 */
export async function everyMaster<T>(transport: Transport, work: (node: ServerNode) => Promise<T>): Promise<T[]> {
  return Promise.all((await transport.masters()).map(work));
}

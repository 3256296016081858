import type { RawClient } from '../test-redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until Redis has dropped a killed worker's connection (named `clientName`), i.e. has run every command
 * it had received from it.
 */
export async function waitUntilDisconnected(raw: RawClient, clientName: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const list = String(await raw.sendCommand(['CLIENT', 'LIST']));
    if (!list.split('\n').some((line) => line.includes(` name=${clientName} `))) return;
    await sleep(10);
  }
  throw new Error(`Redis still lists the killed worker's connection ${clientName}`);
}

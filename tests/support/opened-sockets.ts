import { subscribe, unsubscribe } from 'diagnostics_channel';
import type { Socket } from 'net';

/** The client sockets Node opens while `work` runs (Node's `net.client.socket` diagnostics channel). */
export async function socketsOpenedBy(work: () => Promise<unknown>): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const onSocket = (message: unknown) => void sockets.push((message as { socket: Socket }).socket);
  subscribe('net.client.socket', onSocket);
  try {
    await work();
  } finally {
    unsubscribe('net.client.socket', onSocket);
  }
  return sockets;
}

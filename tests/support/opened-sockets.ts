import { subscribe, unsubscribe } from 'diagnostics_channel';
import type { Socket } from 'net';

/** The client sockets Node opens while `work` runs (Node's `net.client.socket` diagnostics channel). */
export async function socketsOpenedBy(work: () => Promise<unknown>): Promise<Socket[]> {
  const sockets: Socket[] = [];
  await watchSocketsOpened(work, (socket) => void sockets.push(socket));
  return sockets;
}

/** Calls `each` with every client socket Node opens while `work` runs, as it is made (before it connects). */
export async function watchSocketsOpened(work: () => Promise<unknown>, each: (socket: Socket) => void): Promise<void> {
  const onSocket = (message: unknown) => each((message as { socket: Socket }).socket);
  subscribe('net.client.socket', onSocket);
  try {
    await work();
  } finally {
    unsubscribe('net.client.socket', onSocket);
  }
}

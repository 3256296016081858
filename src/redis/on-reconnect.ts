import { isCluster } from './topology';

interface Emitter {
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/**
 * Calls `listener` each time `client` is connected again after its connection dropped: node-redis emits
 * 'ready' on every connection of a client, and a cluster client 'node-ready' on every connection of one of its
 * nodes. Called once the client is connected, so that its first connection is not reported. Returns what stops
 * the listening (a client passed in to connect() outlives the connection).
 */
export function onReconnect(client: unknown, listener: () => void): () => void {
  const emitter = client as Partial<Emitter>;
  if (typeof emitter.on !== 'function' || typeof emitter.off !== 'function') return () => undefined;
  const event = isCluster(client) ? 'node-ready' : 'ready';
  emitter.on(event, listener);
  return () => void emitter.off?.(event, listener);
}

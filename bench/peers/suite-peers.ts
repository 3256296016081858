import { handWrittenPeer } from './hand-written-peer';
import { nohmPeer } from './nohm-peer';
import { Peer, PEER_NAMES, PeerName } from './peer';
import { redisOmPeer } from './redis-om-peer';
import { redisRecordPeer } from './redis-record-peer';

/** Each library's part of a run's prefix: redis-record and hand-written code share it, each under a hash tag of its own. */
const PEER_SUFFIXES: Record<PeerName, string> = { 'redis-record': '', 'hand-written': '', nohm: 'nohm', 'redis-om': 'om' };

const OPENERS: Record<PeerName, (url: string, prefix: string) => Promise<Peer>> = {
  'redis-record': redisRecordPeer,
  'hand-written': handWrittenPeer,
  nohm: nohmPeer,
  'redis-om': redisOmPeer,
};

/** The key prefix the suite's library `name` writes under, in a run under `prefix`. */
export function suitePeerPrefix(name: PeerName, prefix: string): string {
  return prefix + PEER_SUFFIXES[name];
}

/** Every key prefix the suite's libraries write under in a run under `prefix`, each once. */
export function suitePeerPrefixes(prefix: string): string[] {
  return [...new Set(PEER_NAMES.map((name) => suitePeerPrefix(name, prefix)))];
}

/** Opens the suite's library `name` on `url`, under suitePeerPrefix(name, prefix). */
export function openSuitePeer(name: PeerName, url: string, prefix: string): Promise<Peer> {
  return OPENERS[name](url, suitePeerPrefix(name, prefix));
}

/**
 * Opens the suite's four libraries on `url`, in the report's order (PEER_NAMES), each pushed onto `into` as soon
 * as it is open, so that the caller's `finally` closes those opened before one that failed.
 */
export async function openSuitePeers(url: string, prefix: string, into: { push(peer: Peer): unknown }): Promise<void> {
  for (const name of PEER_NAMES) into.push(await openSuitePeer(name, url, prefix));
}

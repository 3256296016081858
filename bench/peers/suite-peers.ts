import { handWrittenPeer } from './hand-written-peer';
import { nohmPeer } from './nohm-peer';
import { Peer, PEER_NAMES, PeerName } from './peer';
import { redisOmPeer } from './redis-om-peer';
import { redisRecordPeer } from './redis-record-peer';

/**
 * Every key prefix openSuitePeers writes under: redis-record's and hand-written code's (each under a hash tag of
 * its own), nohm's and redis-om's.
 */
export function suitePeerPrefixes(prefix: string): [shared: string, nohm: string, redisOm: string] {
  return [prefix, `${prefix}nohm`, `${prefix}om`];
}

/** Opens the suite's library `name` on `url`, under its prefix of suitePeerPrefixes(prefix). */
export function openSuitePeer(name: PeerName, url: string, prefix: string): Promise<Peer> {
  const [shared, nohm, redisOm] = suitePeerPrefixes(prefix);
  switch (name) {
    case 'redis-record':
      return redisRecordPeer(url, shared);
    case 'hand-written':
      return handWrittenPeer(url, shared);
    case 'nohm':
      return nohmPeer(url, nohm);
    case 'redis-om':
      return redisOmPeer(url, redisOm);
  }
}

/**
 * Opens the suite's four libraries on `url`, in the report's order (PEER_NAMES), each pushed onto `into` as soon
 * as it is open, so that the caller's `finally` closes those opened before one that failed.
 */
export async function openSuitePeers(url: string, prefix: string, into: { push(peer: Peer): unknown }): Promise<void> {
  for (const name of PEER_NAMES) into.push(await openSuitePeer(name, url, prefix));
}

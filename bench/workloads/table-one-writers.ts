import { FloorKind, floorWriter } from '../peers/floor-writers';
import { PEER_NAMES, PeerName, TableOneWriter } from '../peers/peer';
import { openSuitePeer } from '../peers/suite-peers';

/** Whom a Table I process can run: one of the suite's libraries, or one of delete-floor's writers. */
export type TableOneKind = PeerName | FloorKind;

const isPeerName = (kind: TableOneKind): kind is PeerName => (PEER_NAMES as readonly string[]).includes(kind);

/**
 * Opens the writer `kind` on `url`: a library under its prefix of suitePeerPrefixes(prefix), as the suite opens
 * it; a floor writer under `${prefix}${kind}`.
 */
export function openTableOneWriter(kind: TableOneKind, url: string, prefix: string): Promise<TableOneWriter> {
  return isPeerName(kind) ? openSuitePeer(kind, url, prefix) : floorWriter(url, `${prefix}${kind}`, kind);
}

import { handWrittenPeer } from '../peers/hand-written-peer';
import { nohmPeer } from '../peers/nohm-peer';
import type { BulkWriter, PeerName } from '../peers/peer';
import { redisOmPeer } from '../peers/redis-om-peer';
import { redisRecordPeer } from '../peers/redis-record-peer';
import { transportReference } from '../peers/transport-reference';

/**
 * The writers the bulk workload times: the libraries, and the transport reference (not a library); and for
 * bench/bulk-cpu.ts the same reference with its commands built before the clock.
 */
export type WriterKind = PeerName | 'reference' | 'reference-prebuilt';

export type OpenWriter = BulkWriter & { close(): Promise<void> };

/** Connects the writer `kind` to `url`, its keys under `prefix` (each kind under a name of its own). */
export async function openWriter(kind: WriterKind, url: string, prefix: string): Promise<OpenWriter> {
  switch (kind) {
    case 'redis-record':
      return redisRecordPeer(url, prefix);
    case 'hand-written':
      return handWrittenPeer(url, prefix);
    case 'nohm':
      return nohmPeer(url, `${prefix}nohm`);
    case 'redis-om':
      return redisOmPeer(url, `${prefix}om`);
    case 'reference':
      return transportReference(url, `${prefix}ref`);
    case 'reference-prebuilt':
      return transportReference(url, `${prefix}built`, { prebuilt: true });
  }
}

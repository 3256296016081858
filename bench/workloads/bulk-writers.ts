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
export type WriterKind = SuiteWriterKind | 'reference-prebuilt';

/** The writers the suite's bulk workload times (bulk-create.ts): the libraries and the reference. */
export type SuiteWriterKind = PeerName | 'reference';

export type OpenWriter = BulkWriter & { close(): Promise<void> };

/**
 * The key prefix of the writer `kind` in a run under `prefix`: the references (redis-record's key layout) and
 * the other libraries each under a name of their own, so that no writer meets another's keys.
 */
export function writerPrefix(kind: WriterKind, prefix: string): string {
  return prefix + WRITER_SUFFIXES[kind];
}

const WRITER_SUFFIXES: Record<WriterKind, string> = {
  'redis-record': '',
  'hand-written': '',
  nohm: 'nohm',
  'redis-om': 'om',
  reference: 'ref',
  'reference-prebuilt': 'built',
};

/** Connects the writer `kind` to `url`, its keys under writerPrefix(kind, prefix). */
export async function openWriter(kind: WriterKind, url: string, prefix: string): Promise<OpenWriter> {
  const own = writerPrefix(kind, prefix);
  switch (kind) {
    case 'redis-record':
      return redisRecordPeer(url, own);
    case 'hand-written':
      return handWrittenPeer(url, own);
    case 'nohm':
      return nohmPeer(url, own);
    case 'redis-om':
      return redisOmPeer(url, own);
    case 'reference':
      return transportReference(url, own);
    case 'reference-prebuilt':
      return transportReference(url, own, { prebuilt: true });
  }
}

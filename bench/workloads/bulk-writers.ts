import type { BulkWriter, PeerName } from '../peers/peer';
import { openSuitePeer, suitePeerPrefix } from '../peers/suite-peers';
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
 * The key prefix of the writer `kind` in a run under `prefix`: a library's as the suite gives it
 * (suitePeerPrefix), each reference under a name of its own (on redis-record's key layout), so that no writer
 * meets another's keys.
 */
export function writerPrefix(kind: WriterKind, prefix: string): string {
  if (kind === 'reference') return `${prefix}ref`;
  if (kind === 'reference-prebuilt') return `${prefix}built`;
  return suitePeerPrefix(kind, prefix);
}

/** Connects the writer `kind` to `url`, its keys under writerPrefix(kind, prefix). */
export async function openWriter(kind: WriterKind, url: string, prefix: string): Promise<OpenWriter> {
  if (kind === 'reference' || kind === 'reference-prebuilt') {
    return transportReference(url, writerPrefix(kind, prefix), { prebuilt: kind === 'reference-prebuilt' });
  }
  return openSuitePeer(kind, url, prefix);
}

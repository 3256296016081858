import { parseScore, ScoredMember } from './reply-shapes';
import type { Transport } from './transport';

/**
 * SCAN and its key forms (ZSCAN, SSCAN, HSCAN), page by page as Redis returns them; a key present throughout is
 * seen at least once, one written or deleted meanwhile may or may not be. SCAN walks every master in turn (the
 * masters as they are when it starts).
 */
export class KeyScans {
  constructor(
    protected readonly scanTransport: Transport,
    protected readonly scanBuffers: boolean,
  ) {}

  /** The key names matching a glob, from every master; `COUNT` is a hint per page. */
  async *scanIterator(options: { MATCH: string; COUNT: number }): AsyncGenerator<string[]> {
    for (const node of await this.scanTransport.masters()) {
      let cursor = '0';
      do {
        const [next, keys] = (await node.send(['SCAN', cursor, 'MATCH', options.MATCH, 'COUNT', String(options.COUNT)])) as [
          string,
          string[],
        ];
        cursor = String(next);
        if (keys.length > 0) yield keys;
      } while (cursor !== '0');
    }
  }

  /** The members of a sorted set with their scores. */
  async *zScanIterator(key: string, options: { COUNT: number }): AsyncGenerator<ScoredMember[]> {
    for await (const page of this.keyScan('ZSCAN', key, options.COUNT)) {
      const members: ScoredMember[] = [];
      for (let i = 0; i < page.length; i += 2) members.push({ value: page[i] as string, score: parseScore(String(page[i + 1])) });
      yield members;
    }
  }

  /** The members of a set. */
  async *sScanIterator(key: string, options: { COUNT: number }): AsyncGenerator<Array<string | Buffer>> {
    yield* this.keyScan('SSCAN', key, options.COUNT) as AsyncGenerator<Array<string | Buffer>>;
  }

  /** The fields of a hash with their values. */
  async *hScanIterator(key: string, options: { COUNT: number }): AsyncGenerator<Array<{ field: string | Buffer; value: string | Buffer }>> {
    for await (const page of this.keyScan('HSCAN', key, options.COUNT)) {
      const entries: Array<{ field: string | Buffer; value: string | Buffer }> = [];
      for (let i = 0; i < page.length; i += 2) entries.push({ field: page[i] as string | Buffer, value: page[i + 1] as string | Buffer });
      yield entries;
    }
  }

  private async *keyScan(command: 'ZSCAN' | 'SSCAN' | 'HSCAN', key: string, count: number): AsyncGenerator<unknown[]> {
    let cursor = '0';
    do {
      const [next, page] = (await this.scanTransport.send([command, key, cursor, 'COUNT', String(count)], key, {
        buffers: this.scanBuffers,
      })) as [unknown, unknown[]];
      cursor = String(next);
      if (page.length > 0) yield page;
    } while (cursor !== '0');
  }
}

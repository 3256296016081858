import { windowArguments, ZRangeWindow } from './reply-shapes';
import type { Command, Transport } from './transport';

/**
 * A MULTI/EXEC being put together: each method queues one command; exec() sends them in one round trip to the node
 * of the first key queued (every key of a transaction shares its slot) and resolves to their replies, in RESP2
 * shapes, a refused command's CommandError in its place.
 */
export class TransactionBuilder {
  private readonly commands: Command[] = [];
  private routing: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly buffers: boolean,
  ) {}

  /** Queues a command given as its arguments; `key` routes the transaction when it is the first. */
  add(command: Command, key?: string): this {
    this.commands.push(command);
    this.routing ??= key;
    return this;
  }

  zCard(key: string): this {
    return this.add(['ZCARD', key], key);
  }
  zCount(key: string, min: number | string, max: number | string): this {
    return this.add(['ZCOUNT', key, String(min), String(max)], key);
  }
  /** ZRANGE by rank with scores: a flat [member, score, ...] reply. */
  zRangeWithScores(key: string, start: number, stop: number): this {
    return this.add(['ZRANGE', key, String(start), String(stop), 'WITHSCORES'], key);
  }
  zRange(key: string, min: number | string, max: number | string, window: ZRangeWindow): this {
    return this.add(['ZRANGE', key, String(min), String(max), ...windowArguments(window)], key);
  }
  time(): this {
    return this.add(['TIME']);
  }
  objectEncoding(key: string): this {
    return this.add(['OBJECT', 'ENCODING', key], key);
  }
  /** SORT_RO of a key: the fields of the window's objects (`GET` patterns), unsorted (`BY nosort`). */
  sortRo(key: string, options: { BY: string; LIMIT: { offset: number; count: number }; GET: readonly string[] }): this {
    const get = options.GET.flatMap((pattern) => ['GET', pattern]);
    return this.add(['SORT_RO', key, 'BY', options.BY, 'LIMIT', String(options.LIMIT.offset), String(options.LIMIT.count), ...get], key);
  }

  /** Sends the transaction; an empty one sends nothing. */
  exec(): Promise<unknown[]> {
    if (this.commands.length === 0) return Promise.resolve([]);
    return this.transport.transaction(this.commands, this.routing ?? '', this.buffers ? { buffers: true } : undefined);
  }
}

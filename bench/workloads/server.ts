import type { Client } from '../support/bench-redis';
import type { RedisFaults } from '../support/redis-faults';

/**
 * What the workloads ask of the suite's private redis-server directly: emptying it between libraries (it is
 * the suite's own: no other data lives there) and reading its memory figures.
 */
export class Server {
  /** `pageFaults` reads the server process's minor page faults so far (redis-faults.ts), null where it cannot. */
  constructor(
    readonly client: Client,
    readonly pageFaults: RedisFaults,
  ) {}

  /** Empties the database, synchronously: the memory is given back before the next measurement. */
  async flush(): Promise<void> {
    await this.client.sendCommand(['FLUSHDB', 'SYNC']);
  }

  async keyCount(): Promise<number> {
    return this.client.dbSize();
  }

  /** INFO memory's used_memory, in bytes. */
  async usedMemory(): Promise<number> {
    const info = await this.client.info('memory');
    const match = /used_memory:(\d+)/.exec(info);
    if (!match) throw new Error('INFO memory has no used_memory');
    return Number(match[1]);
  }

  /** MEMORY USAGE of a key, every element counted (SAMPLES 0). */
  async memoryUsage(key: string): Promise<number> {
    return Number(await this.client.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
  }

  /** Every key matching `pattern` (SCAN, never KEYS). */
  async keys(pattern: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of this.client.scanIterator({ MATCH: pattern, COUNT: 5000 })) keys.push(...batch);
    return keys;
  }
}

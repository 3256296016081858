import { isDeepStrictEqual } from 'util';
import { createClient, createCluster } from 'redis';
import { unlinkKeys } from './cluster-view';
import { DocProgram } from './doc-programs';
import { registryKey } from '../../src/admin';
import { clusterKeysUnder } from './test-cluster';
import { keysUnder, RawClient, uniquePrefix } from './test-redis';

type Library = typeof import('../../src');
type RedisModule = typeof import('redis');
type AnyClient = { isOpen: boolean; destroy(): void };

/** Where a page runs: one server, or a Redis Cluster reached through the node at `url`. */
export interface DocServer {
  readonly url: string;
  readonly cluster: boolean;
}

/**
 * Runs a page's program (doc-programs.ts, runnable form, compiled to CommonJS) against `server`,
 * on a fresh copy of the library (jest.isolateModulesAsync: the page's models register in a registry of
 * their own). Resolves to what went wrong, as "page.md:<line>: ...": an annotation that did not hold, or
 * an error the page did not announce.
 *
 * What the page cannot do as written here: reach localhost:6379 (its URLs name `url`), and close the
 * connection before its end (`disconnect()` waits for the end of the page, which the guide's pages that
 * connect and disconnect in their first block rely on), nor connect without a prefix (it gets a fresh one). Clients the page opens with node-redis's
 * `createClient` are closed after it. Every key under the prefixes it connected with (or, when it did not
 * connect, a fresh one) is deleted afterwards. What it logs is not printed.
 */
export async function runDocPage(program: DocProgram, javascript: string, server: DocServer): Promise<string[]> {
  const { url } = server;
  // connect()'s target when the page gives none
  const target = server.cluster ? { cluster: { rootNodes: [{ url }] } } : { url };
  const failures: string[] = [];
  const prefixes = new Set<string>([uniquePrefix('doc')]);
  const clients: AnyClient[] = [];
  const at = (line: number) => `${program.page}:${line}`;
  const expectValue = (line: number, actual: unknown, expected: unknown) => {
    if (!sameValue(actual, expected)) failures.push(`${at(line)}: got ${show(actual)}, the page says ${show(expected)}`);
  };
  const expectThrow = async (line: number, errorName: string, message: string, run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      const name = (error as { constructor?: { name?: string } })?.constructor?.name;
      const text = String((error as Error)?.message);
      if (name !== errorName || !squeezed(text).includes(squeezed(message))) {
        failures.push(`${at(line)}: threw ${name}: ${text}; the page says ${errorName}${message ? `: ${message}` : ''}`);
      }
      return;
    }
    failures.push(`${at(line)}: threw nothing, the page says ${errorName}`);
  };
  const quiet = { ...console, log: () => undefined, info: () => undefined };
  await jest.isolateModulesAsync(async () => {
    const library = require('../../src') as Library;
    const redis = require('redis') as RedisModule;
    const [first] = prefixes;
    const shim: Library = {
      ...library,
      connect: (options?: Parameters<Library['connect']>[0]) => {
        // no prefix: a fresh one, not the default, which other tests on this server may use
        const given = { prefix: first, ...(options ?? {}) } as Record<string, unknown>;
        if (typeof given.prefix === 'string') prefixes.add(given.prefix);
        return library.connect(((given.url ?? given.client ?? given.cluster) ? given : { ...given, ...target }) as never);
      },
      disconnect: async () => undefined,
    };
    const redisShim = {
      ...redis,
      createClient: (...args: Parameters<RedisModule['createClient']>) => {
        const client = redis.createClient(...args);
        clients.push(client as unknown as AnyClient);
        return client;
      },
    };
    const modules: Record<string, unknown> = { 'redis-record': shim, 'redis-record/admin': require('../../src/admin'), redis: redisShim };
    const load = (name: string) => (name in modules ? modules[name] : require(name));
    const exported: { page?: () => Promise<void> } = {};
    const module = { exports: exported };
    await library.connect({ ...target, prefix: first });
    try {
      new Function('require', 'module', 'exports', 'console', 'redisUrl', 'expectValue', 'expectThrow', javascript)(
        load,
        module,
        exported,
        quiet,
        url,
        expectValue,
        expectThrow,
      );
      await module.exports.page!();
    } catch (error) {
      failures.push(`${program.page}: ${(error as Error).constructor.name}: ${(error as Error).message}`);
    } finally {
      for (const client of clients) if (client.isOpen) client.destroy();
      await library.disconnect();
    }
  });
  await (server.cluster ? deleteUnderCluster(url, prefixes) : deleteUnder(url, prefixes));
  return failures;
}

/** The page's values compare as the guide reads them: structurally, whatever the class (an entity's fields). */
function sameValue(actual: unknown, expected: unknown): boolean {
  return isDeepStrictEqual(plain(actual), plain(expected));
}

function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);
}

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Every key of the page's prefixes: its objects and indexes, and its stored model definitions. */
async function deleteUnder(url: string, prefixes: ReadonlySet<string>): Promise<void> {
  const raw: RawClient = createClient({ url });
  await raw.connect();
  try {
    for (const prefix of prefixes) await raw.del([registryKey(prefix), ...(await keysUnder(raw, prefix))]);
  } finally {
    raw.destroy();
  }
}

/** The same on a cluster: every master's keys of the prefixes (one UNLINK per hash tag), and their definitions. */
async function deleteUnderCluster(url: string, prefixes: ReadonlySet<string>): Promise<void> {
  const cluster = createCluster({ rootNodes: [{ url }] });
  await cluster.connect();
  try {
    for (const prefix of prefixes) {
      await unlinkKeys(cluster, await clusterKeysUnder(cluster, prefix));
      await cluster.unlink(registryKey(prefix));
    }
  } finally {
    cluster.destroy();
  }
}

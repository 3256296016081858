import fc from 'fast-check';
import { createClient, RESP_TYPES } from 'redis';
import { connect, disconnect, RedisRecordError } from '../../../src';
import { uniquePrefix } from '../test-redis';

/**
 * The bad-input suite's harness. Each test file runs in its own Redis database (a fixed db number per file),
 * so a snapshot of the whole database is cheap and exact: before every case the file's keys are deleted, the
 * case's fixtures written, the database snapshotted (every key with its DUMP and whether it has a TTL), the
 * operation run. A case passes when the operation round-trips exactly, or throws an error of the library
 * (RedisRecordError or a subclass) and the snapshot taken afterwards equals the one taken before.
 * Whatever the outcome, every key of the database must be under the namespace of the model under test, and
 * Object.prototype must be as it was.
 */

export type RawClient = ReturnType<typeof createClient>;

/** Fixed, so that a failure reproduces; BAD_INPUT_SEED overrides it. fast-check prints seed and path on failure. */
export const SEED = Number(process.env.BAD_INPUT_SEED ?? 20250611);

/** numRuns scaled by BAD_INPUT_SCALE (default 1): raise it for a longer local hunt. */
export function runs(n: number): number {
  return Math.max(1, Math.round(n * Number(process.env.BAD_INPUT_SCALE ?? 1)));
}

export function urlForDb(db: number): string {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
}

const OBJECT_PROTO_KEYS = Reflect.ownKeys(Object.prototype).map(String).sort();

/** Object.prototype has exactly its own keys, and nothing reads `polluted` through it. */
export function assertPrototypeClean(): void {
  const keys = Reflect.ownKeys(Object.prototype).map(String).sort();
  if (JSON.stringify(keys) !== JSON.stringify(OBJECT_PROTO_KEYS)) throw new Error(`Object.prototype changed: ${keys.join(',')}`);
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined || probe.isAdmin !== undefined) throw new Error('Object.prototype polluted');
  if ((Object.prototype as Record<string, unknown>).polluted !== undefined) throw new Error('Object.prototype polluted');
}

/** Typed errors pass (returns true: the case failed cleanly); any other error is rethrown with its class. */
export function isTyped(error: unknown): true {
  if (error instanceof RedisRecordError) return true;
  const name = error instanceof Error ? error.constructor.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  throw new Error(`untyped error ${name}: ${message.slice(0, 300)}`);
}

/** Every key of the database with its DUMP (hex) and whether it has a TTL: one script call. */
const SNAPSHOT = `
local out = {}
for _, key in ipairs(redis.call('KEYS', ARGV[1])) do
  out[#out + 1] = key
  out[#out + 1] = redis.call('DUMP', key)
  out[#out + 1] = tostring(redis.call('PTTL', key) >= 0)
end
return out`;

export type Snapshot = Map<string, string>;

/** Tallies how many cases each property ran; printed in one line per property when the file ends. */
export class CaseCounter {
  private readonly counts = new Map<string, number>();
  add(property: string, n = 1): void {
    this.counts.set(property, (this.counts.get(property) ?? 0) + n);
  }
  print(file: string, startedAt: number): void {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    const lines = [...this.counts].map(([property, n]) => `bad-input: ${n} ${property}`);
    console.log(`${lines.join('\n')}\nbad-input (${file}): ${seconds} s, seed ${SEED}`);
  }
}

/**
 * Connects redis-record to database `db` under a fresh prefix, and gives the raw client, snapshots, resets
 * and the namespace check.
 */
export function useBadInputRedis(db: number, file: string) {
  const context = {
    prefix: uniquePrefix('bad'),
    raw: undefined as unknown as RawClient,
    cases: new CaseCounter(),
    /** Keys that were in the database before the file started (a shared REDIS_URL); never touched. */
    foreign: new Set<string>(),
  };
  const startedAt = Date.now();
  const binary = () => context.raw.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  beforeAll(async () => {
    context.raw = createClient({ url: urlForDb(db) });
    await context.raw.connect();
    for (const key of await context.raw.keys('*')) context.foreign.add(key);
    await connect({ url: urlForDb(db), prefix: context.prefix });
  });
  afterAll(async () => {
    await disconnect();
    await reset();
    await context.raw.close();
    context.cases.print(file, startedAt);
  });

  const underPrefix = (key: Buffer) => {
    const p = Buffer.from(`${context.prefix}:`, 'utf8');
    return key.length >= p.length && key.subarray(0, p.length).equals(p);
  };

  /** Every key under `<prefix>:`, with DUMP and TTL flag, keyed by the key's bytes (hex). */
  async function snapshot(): Promise<Snapshot> {
    const reply = (await binary().eval(SNAPSHOT, { keys: [], arguments: ['*'] })) as Buffer[];
    const snap: Snapshot = new Map();
    for (let i = 0; i < reply.length; i += 3) {
      if (!underPrefix(reply[i])) continue;
      snap.set(reply[i].toString('hex'), `${reply[i + 1].toString('hex')}/${reply[i + 2].toString()}`);
    }
    return snap;
  }

  /** Deletes every key the file wrote (all keys of the database but the foreign ones). */
  async function reset(): Promise<void> {
    const keys = (await binary().keys('*')) as unknown as Buffer[];
    const mine = keys.filter((key) => !context.foreign.has(key.toString('utf8')));
    for (let i = 0; i < mine.length; i += 500) await binary().unlink(mine.slice(i, i + 500));
  }

  /**
   * Throws unless every key under `<prefix>:` starts with one of the given bases and `:` (compared as UTF-8
   * bytes), and no key was written outside the prefix (keys of the prefix itself, such as `<prefix>#models`,
   * are the library's).
   */
  async function assertNamespace(...bases: string[]): Promise<void> {
    const keys = (await binary().keys('*')) as unknown as Buffer[];
    const prefixes = bases.map((base) => Buffer.from(`${base}:`, 'utf8'));
    const own = Buffer.from(context.prefix, 'utf8');
    const show = (key: Buffer) => JSON.stringify(key.toString('utf8').slice(0, 120));
    for (const key of keys) {
      if (context.foreign.has(key.toString('utf8'))) continue;
      if (!key.subarray(0, own.length).equals(own)) throw new Error(`key written outside the prefix: ${show(key)}`);
      if (!underPrefix(key)) continue;
      if (!prefixes.some((p) => key.length > p.length && key.subarray(0, p.length).equals(p))) {
        throw new Error(`key outside the namespace ${bases.map((b) => JSON.stringify(b)).join(' | ')}: ${show(key)}`);
      }
    }
  }

  return { context, snapshot, reset, assertNamespace };
}

/** Throws unless the two snapshots are equal, naming the keys that differ. */
export function assertSameSnapshot(before: Snapshot, after: Snapshot, what: string): void {
  const differing: string[] = [];
  for (const [key, value] of before) if (after.get(key) !== value) differing.push(key);
  for (const key of after.keys()) if (!before.has(key)) differing.push(key);
  if (differing.length > 0) {
    const names = differing.slice(0, 5).map((hex) => JSON.stringify(Buffer.from(hex, 'hex').toString('utf8').slice(0, 80)));
    throw new Error(`${what} failed but changed ${differing.length} key(s): ${names.join(', ')}`);
  }
}

/**
 * Runs an operation that must either succeed (then `check` verifies the round trip) or throw a typed error
 * having written nothing. Resolves to whether it succeeded.
 */
export async function roundTripOrTypedError<R>(
  what: string,
  snapshot: () => Promise<Snapshot>,
  operation: () => Promise<R>,
  check: (result: R) => Promise<void> | void,
): Promise<boolean> {
  const before = await snapshot();
  let result: R;
  try {
    result = await operation();
  } catch (error) {
    isTyped(error);
    assertSameSnapshot(before, await snapshot(), what);
    assertPrototypeClean();
    return false;
  }
  assertPrototypeClean();
  await check(result);
  return true;
}

/** fast-check parameters every property uses: the fixed seed, and no time-based interruption. */
export function params<T>(numRuns: number, examples: T[] = []): fc.Parameters<T> {
  return { seed: SEED, numRuns: runs(numRuns), examples };
}

/**
 * Runs a property with the fixed seed; on failure throws a short report (fast-check's own would print
 * megabyte strings whole): seed, path, the shrunk counterexample (each argument cut to 300 characters),
 * and the error.
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(property, params<Ts>(numRuns));
  if (!details.failed) return;
  const example = (details.counterexample ?? []).map((value) => describeValue(value, 300)).join(', ');
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `${name}: property failed after ${details.numRuns} case(s), shrunk ${details.numShrinks} time(s)\n` +
      `reproduce with BAD_INPUT_SEED=${details.seed} (path ${details.counterexamplePath})\n` +
      `counterexample: [${example}]\ncause: ${cause.slice(0, 1000)}`,
  );
}

/** Exact equality: Object.is for numbers, getTime for Dates, structural for arrays and plain objects (own keys). */
export function exactlyEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!exactlyEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

export function expectExactly(actual: unknown, expected: unknown, what: string): void {
  if (!exactlyEqual(actual, expected)) {
    throw new Error(`${what}: read back ${describeValue(actual)}, wrote ${describeValue(expected)}`);
  }
}

export function describeValue(value: unknown, max = 100): string {
  if (value instanceof Date) return `Date(${value.getTime()})`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > max ? `${value.slice(0, max - 3)}...(${value.length})` : value);
  try {
    const text = JSON.stringify(value, (_key, item) =>
      typeof item === 'number' && (!Number.isFinite(item) || Object.is(item, -0))
        ? `<${Object.is(item, -0) ? '-0' : item}>`
        : typeof item === 'bigint'
          ? `${item}n`
          : item === undefined
            ? '<undefined>'
            : item instanceof Date
              ? `<Date ${(item as Date).getTime()}>`
              : item,
    );
    return text === undefined ? String(value) : text.length > max ? `${text.slice(0, max - 3)}...(${text.length})` : text;
  } catch {
    return String(value);
  }
}

export { disconnect };

import { Attr, BaseEntity, Index, Model, SortableString } from '../../src';
import { activeConnection } from '../../src/connection/connection';
import { descriptorOf } from '../../src/metadata/model-registry';
import { loadScript } from '../../src/scripts/script';
import { scripts } from '../../src/scripts/scripts';
import { windowScript } from '../../src/query/window-read';
import { expectIndexesConsistent, temporaryKeys } from '../support/index-consistency';
import { expectedIds, Row } from '../support/query-oracle';
import { RawClient, useTestRedis } from '../support/test-redis';

/**
 * findIds and count of a where one index window answers (a range of one score or lex index, alone or with an
 * equality on the scope of a composite index; no orderBy) are one window.lua call, not query.lua: the answers
 * are the oracle's, in numeric id order across 9/10, 99/100 and 999/1000, for every offset and limit; objects
 * given a TTL that has not come are returned, objects whose time has come are not (query.lua then answers and
 * sweeps them), models with a ttl and every other query keep going to query.lua. Which script ran is read
 * from MONITOR, filtered by this file's key prefix.
 */

@Model()
class Reading extends BaseEntity {
  @Attr() @Index() sensor?: string;
  @Attr() @Index({ scope: 'sensor' }) value?: number;
  @Attr() @Index() at?: Date;
  @Attr() @Index({ sortable: true }) label?: SortableString;
}

@Model({ ttl: 3600 })
class Session extends BaseEntity {
  @Attr() @Index() startedAt?: number;
}

@Model({ idStrategy: 'uuid' })
class Token extends BaseEntity {
  @Attr() @Index() weight?: number;
}

/** No ttl, but single objects may be given one. */
@Model({ expirable: true })
class Probe extends BaseEntity {
  @Attr() @Index() level?: number;
}

@Model({ shards: 4 })
class ShardedReading extends BaseEntity {
  @Attr() @Index() sensor?: string;
  @Attr() @Index({ scope: 'sensor' }) value?: number;
}

const redis = useTestRedis();
const COUNT = 1010;
const rows: Row[] = [];
const shardedRows: Row[] = [];
const tokenRows: Row[] = [];

const LABELS = ['b', 'a', 'a,b', 'a\u0000c', 'ab', 'é', 'c'];

beforeAll(async () => {
  // More than 1000 objects: ids of 1, 2, 3 and 4 digits. Values repeat, so a window's own order (value, then
  // id bytes) is not id order.
  for (let start = 1; start <= COUNT; start += 200) {
    const batch: Array<Promise<void>> = [];
    for (let i = start; i < Math.min(COUNT + 1, start + 200); i++) {
      const input = {
        sensor: i % 3 === 0 ? 's0' : 's1',
        value: i % 13 === 0 ? undefined : (i * 7) % 17,
        at: new Date(((i * 5) % 23) * 1000),
        label: i % 9 === 0 ? undefined : LABELS[i % LABELS.length],
      };
      batch.push(Reading.create(input).then((reading) => void rows.push({ id: reading.id, ...input })));
    }
    await Promise.all(batch);
  }
  for (let i = 1; i <= 120; i++) {
    const input = { sensor: i % 2 === 0 ? 's0' : 's1', value: (i * 5) % 11 };
    const reading = await ShardedReading.create(input);
    shardedRows.push({ id: reading.id, ...input });
  }
  for (let i = 1; i <= 40; i++) {
    const input = { weight: i % 6 };
    const token = await Token.create(input);
    tokenRows.push({ id: token.id, ...input });
  }
});

/**
 * The scripts (window.lua, query.lua or another) `run` calls on this file's keys, from MONITOR. A marker
 * command sent after `run` bounds the capture: Redis feeds MONITOR in the order it runs commands.
 */
async function scriptsRun(run: () => Promise<unknown>): Promise<string[]> {
  const monitor = redis.raw.duplicate() as RawClient;
  await monitor.connect();
  const lines: string[] = [];
  const marker = `${redis.prefix}:marker:${Math.random()}`;
  let sawMarker: () => void = () => undefined;
  const markerSeen = new Promise<void>((resolve) => (sawMarker = resolve));
  await monitor.monitor((line: string) => {
    if (line.includes(marker)) sawMarker();
    else if (line.includes(redis.prefix)) lines.push(line);
  });
  try {
    await run();
    await redis.raw.exists(marker);
    await markerSeen;
  } finally {
    monitor.destroy();
  }
  const names = new Map([
    [windowScript().sha, 'window.lua'],
    [scripts.query().sha, 'query.lua'],
  ]);
  // EVALSHA names a script by its sha; EVAL (the first use on a server that has not loaded it) by its source
  const scriptOf = (line: string) => {
    const sha = /"evalsha" "([0-9a-f]{40})"/i.exec(line)?.[1];
    if (sha) return names.get(sha) ?? sha;
    return /"eval" "-- ([\w-]+\.lua):/i.exec(line)?.[1];
  };
  return lines.map(scriptOf).filter((name): name is string => name !== undefined);
}

const WINDOWS: Array<Record<string, unknown>> = [
  { sensor: 's0', value: { gte: 3, lte: 9 } },
  { sensor: 's1', value: { gt: 0 } },
  { sensor: 's1', value: 4 },
  { sensor: 's0', value: { gt: 100 } },
  { at: { lt: new Date(9000) } },
  { at: { gte: new Date(0) } },
  { label: { gte: 'a,b' } },
  { label: { startsWith: 'a' } },
  { label: 'a\u0000c' },
  { label: { lt: 'a' } },
];

describe('a where one index window answers', () => {
  it.each(WINDOWS.map((where) => [JSON.stringify(where), where]))('%s: ids, pages and count as the oracle, from window.lua', async (_, where) => {
    const expected = expectedIds(rows, where);
    const used = await scriptsRun(async () => {
      expect(await Reading.findIds(where as never)).toEqual(expected);
      for (const offset of new Set([0, 1, 9, 10, 99, 100, Math.max(0, expected.length - 1), expected.length, expected.length + 5])) {
        for (const limit of [0, 1, 3, 100]) {
          expect(await Reading.findIds(where as never, { offset, limit })).toEqual(expected.slice(offset, offset + limit));
        }
        expect(await Reading.findIds(where as never, { offset })).toEqual(expected.slice(offset));
      }
      expect(await Reading.count(where as never)).toBe(expected.length);
    });
    expect(new Set(used)).toEqual(new Set(['window.lua']));
  });

  it('puts ids of 1 to 4 digits in numeric order', async () => {
    const ids = await Reading.findIds({ at: { gte: new Date(0) } });
    expect(ids.length).toBeGreaterThan(1000);
    expect(ids.map(Number)).toEqual(
      rows
        .filter((row) => row.at !== undefined)
        .map((row) => Number(row.id))
        .sort((a, b) => a - b),
    );
  });

  it('loads (findBy) and orderBy queries still run query.lua, with the same ids', async () => {
    const where = { sensor: 's1', value: { gte: 2, lte: 10 } };
    const used = await scriptsRun(async () => {
      expect((await Reading.findBy(where)).map((reading) => reading.id)).toEqual(expectedIds(rows, where));
      expect(await Reading.findIds(where, { orderBy: { value: 'desc' } })).toEqual(expectedIds(rows, where, { orderBy: { value: 'desc' } }));
    });
    expect(used).toEqual(['query.lua', 'query.lua']);
  });

  it('an equality read from a composite index implies its scope, in and OR included', async () => {
    const wheres: Array<Record<string, unknown>> = [
      { value: 4, sensor: 's0' },
      { sensor: 's0', value: { in: [2, 5, 12] } },
      { sensor: 's1', OR: [{ value: 3 }, { value: { gte: 15 } }] },
      { OR: [{ sensor: 's0', value: 3 }, { sensor: 's1', value: 3 }] },
      { sensor: 's1', value: 4, at: { gte: new Date(5000) } },
    ];
    for (const where of wheres) {
      expect(await Reading.findIds(where as never)).toEqual(expectedIds(rows, where));
      expect(await Reading.count(where as never)).toBe(expectedIds(rows, where).length);
    }
  });

  it('a where of two index windows runs query.lua', async () => {
    const where = { value: { gte: 2 }, at: { lt: new Date(5000) }, sensor: 's0' };
    const used = await scriptsRun(async () => expect(await Reading.findIds(where)).toEqual(expectedIds(rows, where)));
    expect(used).toEqual(['query.lua']);
  });

  it('a sharded model reads each shard window with window.lua and merges them', async () => {
    for (const where of [{ sensor: 's0', value: { gte: 2, lte: 8 } }, { sensor: 's1', value: { lt: 5 } }]) {
      const expected = expectedIds(shardedRows, where);
      const used = await scriptsRun(async () => {
        expect(await ShardedReading.findIds(where)).toEqual(expected);
        expect(await ShardedReading.findIds(where, { offset: 3, limit: 7 })).toEqual(expected.slice(3, 10));
        expect(await ShardedReading.count(where)).toBe(expected.length);
      });
      expect(new Set(used)).toEqual(new Set(['window.lua']));
      expect(used).toHaveLength(3 * 4);
    }
  });

  it('uuid ids: count reads the window, ids (ordered by bytes) run query.lua', async () => {
    const where = { weight: { gte: 2, lte: 4 } };
    const expected = expectedIds(tokenRows, where, {}, 'uuid');
    const used = await scriptsRun(async () => {
      expect(await Token.count(where)).toBe(expected.length);
      expect(await Token.findIds(where)).toEqual(expected);
    });
    expect(used).toEqual(['window.lua', 'query.lua']);
  });

  it('a model with a ttl runs query.lua', async () => {
    const kept: string[] = [];
    for (let i = 0; i < 5; i++) kept.push((await Session.create({ startedAt: i })).id);
    const used = await scriptsRun(async () => {
      expect(await Session.findIds({ startedAt: { gte: 1 } })).toEqual(kept.slice(1));
      expect(await Session.count({ startedAt: { gte: 1 } })).toBe(4);
    });
    expect(used).toEqual(['query.lua', 'query.lua']);
  });
});

describe('objects given a TTL', () => {
  it('an object whose time has not come is returned, from window.lua', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await Probe.create({ level: i })).id);
    await (await Probe.findOrFail(ids[2])).expire(3600);
    const used = await scriptsRun(async () => {
      expect(await Probe.findIds({ level: { gte: 0 } })).toEqual(ids);
      expect(await Probe.count({ level: { gte: 0 } })).toBe(6);
    });
    expect(used).toEqual(['window.lua', 'window.lua']);
    const keys = descriptorOf(Probe).keys(activeConnection().prefix);
    expect(await redis.raw.zCard(keys.expiring)).toBe(1);
  });

  it('objects whose time has come are left out: query.lua answers and sweeps them, then window.lua again', async () => {
    const keys = descriptorOf(Probe).keys(activeConnection().prefix);
    const before = await Probe.findIds({ level: { gte: 0 } });
    const due = [before[0], before[4]];
    for (const id of due) await (await Probe.findOrFail(id)).expire(0.001);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const live = before.filter((id) => !due.includes(id));
    const first = await scriptsRun(async () => expect(await Probe.findIds({ level: { gte: 0 } })).toEqual(live));
    expect(first).toEqual(['window.lua', 'query.lua']);
    // swept: gone from `exp` and from the index, only the TTL of the object whose time has not come is left
    expect(await redis.raw.zCard(keys.expiring)).toBe(1);
    for (const id of due) expect(await redis.raw.exists(`${keys.base}:obj:${id}`)).toBe(0);
    const then = await scriptsRun(async () => {
      expect(await Probe.findIds({ level: { gte: 0 } })).toEqual(live);
      expect(await Probe.count({ level: { gte: 0 } })).toBe(live.length);
    });
    expect(then).toEqual(['window.lua', 'window.lua']);
  });

  it('count leaves out objects whose time has come too', async () => {
    const before = await Probe.findIds({ level: { gte: 0 } });
    await (await Probe.findOrFail(before[1])).expire(0.001);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const used = await scriptsRun(async () => expect(await Probe.count({ level: { gte: 0 } })).toBe(before.length - 1));
    expect(used).toEqual(['window.lua', 'query.lua']);
  });
});

describe('window.lua', () => {
  it('is the file the query runner loads, with a header naming its keys and arguments', () => {
    const script = loadScript('window.lua');
    expect(windowScript().sha).toBe(script.sha);
    expect(script.source).toMatch(/^-- window\.lua: /);
    expect(script.source).toMatch(/-- KEYS\[1\]/);
    expect(script.source).toMatch(/-- ARGV\[1\]/);
  });

  it('leaves the indexes consistent and no temporary key', async () => {
    await expectIndexesConsistent(Reading, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});

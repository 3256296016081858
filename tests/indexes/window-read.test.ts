import { Attr, BaseEntity, connect, disconnect, Index, Model, SortableString } from '../../src';
import { activeConnection } from '../../src/redis/connection';
import { descriptorOf } from '../../src/model/model-registry';
import { luaSource } from '../../src/store/lua-source';
import { scripts } from '../../src/store/scripts';
import { QueryRunner } from '../../src/query/query-runner';
import { sortRowsById } from '../../src/store/id-order';
import { loadWindow, plainLoadWindow } from '../../src/query/window-read';
import { sortedIdList } from '../../src/store/lua/window';
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

/** Its objects' hashes are deleted behind its back by a test (the entries stay). */
@Model()
class Leftover extends BaseEntity {
  @Attr() @Index() rank?: number;
}

@Model()
class Busy extends BaseEntity {
  @Attr() @Index() n?: number;
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
  // enough for each shard's scoped indexes to hold more than 128 entries: SORT_RO reads only such (skiplist)
  // sorted sets, as SORT would turn a small one into a skiplist for good
  const shardedInputs = Array.from({ length: 1200 }, (_, at) => ({ sensor: at % 2 === 0 ? 's1' : 's0', value: ((at + 1) * 5) % 11 }));
  const stored = await ShardedReading.saveMany(shardedInputs);
  stored.saved.forEach((reading, at) => shardedRows.push({ id: reading.id, ...shardedInputs[at] }));
  for (let i = 1; i <= 40; i++) {
    const input = { weight: i % 6 };
    const token = await Token.create(input);
    tokenRows.push({ id: token.id, ...input });
  }
});

/**
 * The scripts (window.lua, query.lua or another) `run` calls on this file's keys, and its SORT_RO commands
 * (window loads), from MONITOR. A marker
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
    [scripts.window().name, 'window.lua'],
    [scripts.query().name, 'query.lua'],
  ]);
  // FCALL and FCALL_RO name the function; SORT_RO sent by the client itself (not from a function: those lines
  // name `lua`) is a window load
  const scriptOf = (line: string) => {
    const name = /"fcall(?:_ro)?" "(\w+)"/i.exec(line)?.[1];
    if (name) return names.get(name) ?? name;
    if (/"sort_ro" /i.test(line) && !/ lua\]/.test(line)) return 'SORT_RO';
    return undefined;
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
  it.each(WINDOWS.map((where) => [JSON.stringify(where), where]))(
    '%s: ids, pages and count as the oracle, from window.lua',
    async (_, where) => {
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
    },
  );

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

  it('orderBy queries still run query.lua', async () => {
    const where = { sensor: 's1', value: { gte: 2, lte: 10 } };
    const used = await scriptsRun(async () => {
      expect(await Reading.findIds(where, { orderBy: { value: 'desc' } })).toEqual(
        expectedIds(rows, where, { orderBy: { value: 'desc' } }),
      );
    });
    expect(used).toEqual(['query.lua']);
  });

  it('an equality read from a composite index implies its scope, in and OR included', async () => {
    const wheres: Array<Record<string, unknown>> = [
      { value: 4, sensor: 's0' },
      { sensor: 's0', value: { in: [2, 5, 12] } },
      { sensor: 's1', OR: [{ value: 3 }, { value: { gte: 15 } }] },
      {
        OR: [
          { sensor: 's0', value: 3 },
          { sensor: 's1', value: 3 },
        ],
      },
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
    for (const where of [
      { sensor: 's0', value: { gte: 2, lte: 8 } },
      { sensor: 's1', value: { lt: 5 } },
    ]) {
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

/** Each object as the oracle holds it: id and attribute values (Dates by time). */
function plain(objects: ReadonlyArray<Record<string, unknown>>, attributes: readonly string[]): unknown[] {
  return objects.map((object) => [
    object.id,
    ...attributes.map((name) => (object[name] instanceof Date ? (object[name] as Date).getTime() : object[name])),
  ]);
}

const READING_ATTRIBUTES = ['sensor', 'value', 'at', 'label'];
const oracleObjects = (source: readonly Row[], ids: readonly string[]) =>
  plain(
    ids.map((id) => source.find((row) => row.id === id)!),
    READING_ATTRIBUTES,
  );

describe('loading every object of a score index window (findBy without offset, limit or orderBy)', () => {
  const SCORE_WINDOWS = WINDOWS.filter((where) => !('label' in where));

  it.each(SCORE_WINDOWS.map((where) => [JSON.stringify(where), where]))(
    '%s: the oracle objects, from SORT_RO, no script',
    async (_, where) => {
      const expected = expectedIds(rows, where);
      const used = await scriptsRun(async () => {
        const found = await Reading.findBy(where as never);
        expect(plain(found as never, READING_ATTRIBUTES)).toEqual(oracleObjects(rows, expected));
      });
      expect(used).toEqual(expected.length === 0 ? [] : ['SORT_RO']);
    },
  );

  it('a page (offset, limit) and a lex window load with query.lua', async () => {
    const where = { sensor: 's1', value: { gte: 2, lte: 10 } };
    const used = await scriptsRun(async () => {
      const page = await Reading.findBy(where, { offset: 5, limit: 20 });
      expect(plain(page as never, READING_ATTRIBUTES)).toEqual(oracleObjects(rows, expectedIds(rows, where).slice(5, 25)));
      const lex = await Reading.findBy({ label: { startsWith: 'a' } });
      expect(plain(lex as never, READING_ATTRIBUTES)).toEqual(oracleObjects(rows, expectedIds(rows, { label: { startsWith: 'a' } })));
    });
    expect(used).toEqual(['query.lua', 'query.lua']);
  });

  it('a sharded model loads each shard window with SORT_RO and merges them', async () => {
    const where = { sensor: 's0', value: { gte: 2, lte: 8 } };
    const expected = expectedIds(shardedRows, where);
    const used = await scriptsRun(async () => {
      const found = await ShardedReading.findBy(where);
      expect(plain(found as never, ['sensor', 'value'])).toEqual(
        plain(
          expected.map((id) => shardedRows.find((row) => row.id === id)!),
          ['sensor', 'value'],
        ),
      );
    });
    // one per shard whose window is not empty
    expect(new Set(used)).toEqual(new Set(['SORT_RO']));
  });

  it('rows read at ranks the window no longer has are not used: the read is made again where the window is', async () => {
    const where = { sensor: 's0', value: { gte: 3, lte: 9 } };
    const model = descriptorOf(Reading);
    const keys = model.keys(activeConnection().prefix);
    const planned = new QueryRunner(model, activeConnection()).plan(where).shards[0];
    const client = activeConnection().client;
    const window = plainLoadWindow(model, keys, planned, { offset: 0, limit: -1 }, client)!;
    expect(window).toBeDefined();
    const expected = expectedIds(rows, where);
    const ids = (reply: unknown[] | undefined) => reply!.filter((_, i) => i % window.patterns.length === 0);
    // where the window is (read with ZCOUNT), then ranks one off, and a count of the wrong size
    const end = await redis.raw.zCount(window.key, '-inf', window.max);
    for (const ranks of [
      { start: end - expected.length, count: expected.length },
      { start: end - expected.length + 1, count: expected.length },
      { start: 0, count: 3 },
      { start: 0, count: 0 },
    ]) {
      expect(ids(await loadWindow(client, keys, window, ranks))).toEqual(expected);
    }
  });

  it('an object whose hash has vanished (its index entries left behind) is left out', async () => {
    const keys = descriptorOf(Leftover).keys(activeConnection().prefix);
    // more than 128 entries: a small index is read by query.lua (SORT would make it a skiplist)
    const ids = (await Leftover.saveMany(Array.from({ length: 140 }, (_, rank) => ({ rank })))).saved.map((item) => item.id);
    await redis.raw.del(keys.object(ids[3]));
    const used = await scriptsRun(async () => {
      expect((await Leftover.findBy({ rank: { gte: 0 } })).map((item) => item.id)).toEqual(ids.filter((id) => id !== ids[3]));
    });
    expect(used).toEqual(['SORT_RO']);
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

  it('a load leaves them out too: query.lua answers and sweeps them', async () => {
    const before = await Probe.findIds({ level: { gte: 0 } });
    const due = before[before.length - 1];
    await (await Probe.findOrFail(due)).expire(0.001);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const used = await scriptsRun(async () => {
      expect((await Probe.findBy({ level: { gte: 0 } })).map((probe) => probe.id)).toEqual(before.slice(0, -1));
    });
    expect(used).toEqual(['query.lua']);
    const again = await scriptsRun(async () => {
      expect((await Probe.findBy({ level: { gte: 0 } })).map((probe) => probe.id)).toEqual(before.slice(0, -1));
    });
    // query.lua again: this index is small (a listpack), which SORT_RO would turn into a skiplist for good
    expect(again).toEqual(['query.lua']);
  });

  it('count leaves out objects whose time has come too', async () => {
    const before = await Probe.findIds({ level: { gte: 0 } });
    await (await Probe.findOrFail(before[1])).expire(0.001);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const used = await scriptsRun(async () => expect(await Probe.count({ level: { gte: 0 } })).toBe(before.length - 1));
    expect(used).toEqual(['window.lua', 'query.lua']);
  });
});

describe('loads while other clients write into the window', () => {
  it('every load is one state of the window: its objects match, once each, in id order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await Busy.create({ n: (i * 37) % 100 })).id);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 400; i++) {
        const pick = ids[(i * 7919) % ids.length];
        if (i % 3 === 0) ids.push((await Busy.create({ n: (i * 13) % 100 })).id);
        else if (i % 3 === 1) {
          const busy = await Busy.find(pick);
          if (busy) {
            busy.n = (i * 29) % 100;
            await busy.save();
          }
        } else await (await Busy.find(pick))?.remove();
      }
      writing = false;
    })();
    const where = { n: { gte: 20, lte: 60 } };
    let loads = 0;
    while (writing || loads < 5) {
      const found = await Busy.findBy(where);
      const numbers = found.map((busy) => Number(busy.id));
      expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
      for (const busy of found) expect(busy.n! >= 20 && busy.n! <= 60).toBe(true);
      loads++;
    }
    await writer;
    expect((await Busy.findBy(where)).map((busy) => busy.id)).toEqual(await Busy.findIds(where));
    await expectIndexesConsistent(Busy, redis.raw, redis.prefix);
  });
});

describe('a connection whose user may not run SORT_RO (ACL -@dangerous)', () => {
  const user = `rr_window_${Math.random().toString(36).slice(2, 10)}`;
  afterAll(async () => {
    await disconnect();
    await connect({ url: process.env.REDIS_URL, prefix: redis.prefix });
    await redis.raw.sendCommand(['ACL', 'DELUSER', user]);
  });

  it('loads with query.lua, after one refused SORT_RO', async () => {
    await redis.raw.sendCommand(['ACL', 'SETUSER', user, 'on', '>window-test', '~*', '&*', '+@all', '-@dangerous']);
    const url = new URL(process.env.REDIS_URL!);
    url.username = user;
    url.password = 'window-test';
    await disconnect();
    await connect({ url: url.toString(), prefix: redis.prefix });
    const where = { sensor: 's1', value: { gte: 2, lte: 10 } };
    const expected = oracleObjects(rows, expectedIds(rows, where));
    const used = await scriptsRun(async () => {
      for (let i = 0; i < 3; i++) expect(plain((await Reading.findBy(where)) as never, READING_ATTRIBUTES)).toEqual(expected);
    });
    expect(used).toEqual(['query.lua', 'query.lua', 'query.lua']);
    // entries are maps (RESP3) or flat field/value lists (RESP2)
    const log = (await redis.raw.sendCommand(['ACL', 'LOG', '128'])) as Array<unknown[] | Record<string, unknown>>;
    const refused = log
      .map((entry) =>
        Array.isArray(entry)
          ? Object.fromEntries(Array.from({ length: entry.length / 2 }, (_, i) => [String(entry[2 * i]), entry[2 * i + 1]]))
          : entry,
      )
      .filter((entry) => entry.username === user);
    expect(refused.map((entry) => [entry.object, Number(entry.count)])).toEqual([['sort_ro', 1]]);
  });
});

describe('putting ids in order in the client', () => {
  it('reads canonical ids of up to 15 digits from the comma-separated window', () => {
    expect(sortedIdList('10,9,100,0,99,1000')).toEqual(['0', '9', '10', '99', '100', '1000']);
    expect(sortedIdList('999999999999999,5,4294967296')).toEqual(['5', '4294967296', '999999999999999']);
    expect(sortedIdList('7')).toEqual(['7']);
  });

  it.each(['07,8', '8,-1', '8,a', '8,,9', '8,', '1000000000000000', '1e3', '8, 9'])('leaves %p to the general sort', (text) => {
    expect(sortedIdList(text)).toBeUndefined();
  });

  it('sorts rows of several values by the id that starts each, numerically, ids above 2^32 included', () => {
    const rows = ['10', 'a', '9', 'b', '100', 'c', '11', 'd'];
    expect(sortRowsById(rows, 2)).toEqual(['9', 'b', '10', 'a', '11', 'd', '100', 'c']);
    const large = ['4294967297', '12', '4294967296'];
    expect(sortRowsById(large, 1)).toEqual(['12', '4294967296', '4294967297']);
  });
});

describe('window.lua', () => {
  it('is the file the query runner loads, with a header naming its keys and arguments', () => {
    const source = luaSource('lua/window.lua');
    expect(scripts.window().script).toBe('window');
    expect(source).toMatch(/^-- window\.lua: /);
    expect(source).toMatch(/-- KEYS\[1\]/);
    expect(source).toMatch(/-- ARGV\[1\]/);
  });

  it('leaves the indexes consistent and no temporary key', async () => {
    await expectIndexesConsistent(Reading, redis.raw, redis.prefix);
    expect(await temporaryKeys(redis.raw, redis.prefix)).toEqual([]);
  });
});

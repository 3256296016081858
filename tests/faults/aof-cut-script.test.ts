import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Attr, BaseEntity, connect, disconnect, Index, Model } from '../../src';
import { killAndRestart, PrivateRedis, startPrivateRedis } from '../../tools/private-redis';
import { aofCommands, aofIncrFiles } from '../support/fault-workers/aof-history';
import { fixAofTail } from '../support/fault-workers/fix-aof-tail';
import { uniquePrefix } from '../support/test-redis';

/**
 * A redis-server with AOF (`appendfsync always`) is killed while it writes a create's effects: the file ends
 * inside the script's MULTI block, after its first four writes (create-plain.lua: the id drawn, the `all`
 * entry and the two index entries; the hash comes last). The cut is made by hand where a kill would make it. The create was never acknowledged, and after the first restart it is
 * not there. Redis 7.0 cuts such a tail after the block's last whole command, not before its MULTI, so the
 * next create's block is appended to the open one, and the restart after that runs the lost create's first
 * commands again with it: index entries the stored object does not have. With the tail mended by
 * `redis-check-aof --fix` before the restart, nothing of the lost create comes back; without it, check()
 * names what came back, and repair() mends it (docs/consistency.md, "Redis stops or restarts").
 */

@Model()
class CutNote extends BaseEntity {
  @Attr() @Index() tag?: string;
  @Attr() @Index() rank?: number;
}

const AOF = ['--appendonly', 'yes', '--appendfsync', 'always'];

let dataDir: string;
let redis: PrivateRedis;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'redis-record-aofcut-'));
  redis = await startPrivateRedis([...AOF, '--dir', dataDir]);
});
afterEach(async () => {
  await disconnect();
  await redis.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Cuts the AOF inside its last MULTI block: in the middle of the block's fifth command, after four whole ones. */
function cutInsideLastBlock(): void {
  const file = aofIncrFiles(dataDir).at(-1)!;
  const commands = aofCommands(readFileSync(file));
  const multi = commands.map(({ args }) => args[0]).lastIndexOf('MULTI');
  expect(multi).toBeGreaterThan(0);
  truncateSync(file, commands[multi + 4].end + 6);
}

/** Kills the server, runs `change` on its files while it is down, mends the AOF's tail or not, and starts it again. */
async function killAndStart(mend: boolean, change: () => void = () => undefined): Promise<void> {
  redis = await killAndRestart(redis, [...AOF, '--dir', dataDir], () => {
    change();
    if (mend) fixAofTail(dataDir);
  });
}

describe('a create cut by a kill inside its AOF block', () => {
  it.each([
    ['mended with redis-check-aof --fix before each restart, nothing of it comes back', true],
    ["left to the server's own truncation, check() names what comes back and repair() mends it", false],
  ])('%s', async (_, mend) => {
    const prefix = uniquePrefix('aofcut');
    await connect({ url: redis.url, prefix });
    // the AOF's last block: this create's effects, cut as though the kill had come while Redis wrote them (its
    // reply would then never have been sent)
    const lost = await CutNote.create({ tag: 'lost', rank: 1 });
    await disconnect();
    await killAndStart(mend, cutInsideLastBlock);
    await connect({ url: redis.url, prefix });
    expect(await CutNote.find(lost.id)).toBeNull();

    const kept = await CutNote.create({ tag: 'kept', rank: 2 }); // acknowledged: fsynced before its reply
    expect(kept.id).toBe(lost.id); // the lost create's id was never drawn
    await disconnect();
    await killAndStart(mend);
    await connect({ url: redis.url, prefix });

    const stored = await CutNote.find(kept.id);
    expect(stored?.toJSON()).toEqual({ id: kept.id, tag: 'kept', rank: 2 });
    expect(await CutNote.findIds({ tag: 'kept' })).toEqual([kept.id]);
    const check = await CutNote.check();
    if (mend) {
      expect(check.violations).toEqual([]);
    } else if (!check.ok) {
      // what came back is the lost create's index entries, under the id the kept object now has: its tag's set
      // entry, and its rank's score (the kept create's `ZADD ... NX` found the member there, replayed)
      const found = check.violations.map((v) => [v.kind, v.id, v.key]).sort();
      expect(found).toEqual([
        ['wrongEntry', kept.id, `${prefix}:{CutNote}:idx:rank`],
        ['wrongEntry', kept.id, `${prefix}:{CutNote}:idx:tag:lost`],
      ]);
      await CutNote.repair();
      expect((await CutNote.check()).violations).toEqual([]);
    }
    expect(await CutNote.findIds({ tag: 'lost' })).toEqual([]);
    expect(await CutNote.count()).toBe(1);
  });
});

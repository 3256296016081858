import { Attr, BaseEntity, Index, Model } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * check() reads each object's hash TTL and its `exp` entry in one transaction (src/integrity/expiry-reads.ts):
 * expire(), persist() and every save change the two in one step, so a check under way never sees one without
 * the other. Seen from Redis itself: MONITOR lists what the server ran, a transaction's commands between its
 * MULTI and EXEC.
 */

@Model({ ttl: 3600 })
class ReadLog extends BaseEntity {
  @Attr() @Index() level?: string;
}

const redis = useTestRedis();

it('reads the TTLs and the exp entries of a batch between one MULTI and its EXEC', async () => {
  const created = await ReadLog.saveMany([{ level: 'info' }, { level: 'warn' }, { level: 'info' }]);
  expect(created.ok).toBe(true);
  const ids = created.saved.map((log) => log.id!);
  const base = `${redis.prefix}:{ReadLog}`;
  const monitor = redis.raw.duplicate();
  await monitor.connect();
  // each line: `<time> [<db> <client address>] "COMMAND" "arg" ...`
  const seen: Array<{ client: string; command: string }> = [];
  try {
    let markerSeen: () => void = () => undefined;
    const marker = new Promise<void>((resolve) => (markerSeen = resolve));
    await monitor.monitor((line) => {
      const at = line.indexOf('"');
      // the command's name as the client spelled it (ioredis sends `multi`), upper-cased
      const command = line.slice(at).replace(/^"([a-z]+)"/i, (_, name: string) => `"${name.toUpperCase()}"`);
      seen.push({ client: line.slice(line.indexOf('['), at), command });
      if (command === `"ECHO" "${base}:done"`) markerSeen();
    });
    expect((await ReadLog.check()).violations).toEqual([]);
    // MONITOR shows commands in the order the server ran them: once the marker sent after check() is seen, so
    // is every command check() sent
    await redis.raw.echo(`${base}:done`);
    await marker;
  } finally {
    await monitor.close();
  }
  const exp = JSON.stringify(`${base}:exp`);
  // the client that read the TTLs (test files running beside this one send their own MULTIs to this server)
  const reader = seen.find(({ command }) => command.startsWith(`"PTTL" "${base}:obj:`))?.client;
  expect(reader).toBeDefined();
  // its TTL reads, its reads of exp and the transactions around them (check() also reads `all`'s scores)
  const reads = seen
    .filter(({ client }) => client === reader)
    .map(({ command }) => command)
    .filter((command) => /^"(PTTL|MULTI|EXEC)"/.test(command) || command.startsWith(`"ZMSCORE" ${exp}`));
  expect(reads).toEqual([
    '"MULTI"',
    ...ids.map((id) => `"PTTL" ${JSON.stringify(`${base}:obj:${id}`)}`),
    `"ZMSCORE" ${exp} ${ids.map((id) => JSON.stringify(id)).join(' ')}`,
    '"EXEC"',
  ]);
  await ReadLog.removeMany(ids);
});

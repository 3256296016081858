import { Attr, BaseEntity, Index, Model } from '../../src';
import { boundScript, luaString } from '../../src/store/bound-script';
import { commandsFor } from '../../src/redis/commands-for';
import { Script } from '../../src/store/script';
import { useTestRedis } from '../support/test-redis';
import { useCountingConnection } from './support/counting-client';

/**
 * A script with data bound into its source (boundScript) sees exactly the values it was bound to, whatever
 * bytes they hold, and no value can become code.
 */

const redis = useTestRedis();

describe('boundScript', () => {
  it('binds values byte for byte: quotes, backslashes, newlines, NUL, long brackets, UTF-8, empty', async () => {
    const values = ['plain', 'with "quotes" and \'single\' ones', 'a \\ backslash', 'new\nline\r\n', 'nul\0byte', ']]', 'ünïcödé ✓', ''];
    const script = boundScript(new Script('spec.lua', 'return SPEC'), values);
    expect(await script.run(commandsFor(redis.raw), [], [])).toEqual(values);
  });

  it('writes every byte as a decimal escape, so a value cannot end the literal and run as code', async () => {
    expect(luaString('a"')).toBe('"\\097\\034"');
    expect(luaString('é')).toBe('"\\195\\169"');
    const key = `${redis.prefix}:pwned`;
    const attack = `"} redis.call('SET', '${key}', '1') local x = {"`;
    const script = boundScript(new Script('spec.lua', 'return #SPEC'), [attack, `]] ${attack}`]);
    expect(await script.run(commandsFor(redis.raw), [], [])).toBe(2);
    expect(await redis.raw.exists(key)).toBe(0);
  });

  it('is a script of its own, with its own SHA, per binding', () => {
    const base = new Script('spec.lua', 'return SPEC[1]');
    const one = boundScript(base, ['a']);
    const other = boundScript(base, ['b']);
    expect(new Set([base.sha, one.sha, other.sha]).size).toBe(3);
    expect(boundScript(base, ['a']).sha).toBe(one.sha);
  });
});

describe("a model's bound scripts", () => {
  // attribute names no other test uses: the bound script's text (and SHA) depends on them alone
  @Model()
  class BoundProbe extends BaseEntity {
    @Attr() @Index() boundProbeKind!: string;
    @Attr() @Index() boundProbeAt!: Date;
  }

  const counting = useCountingConnection(redis);

  it('are loaded with the model registration: the first remove is one EVALSHA, not a NOSCRIPT retry', async () => {
    const probe = await BoundProbe.create({ boundProbeKind: 'a', boundProbeAt: new Date(1) });
    counting.reset();
    await probe.remove();
    expect(counting.calls).toEqual(['evalSha']);
    expect(await BoundProbe.count()).toBe(0);
  });

  it('also for a model defined after connect(), registered at its first use', async () => {
    @Model()
    class LateBoundProbe extends BaseEntity {
      @Attr() @Index() lateBoundProbeKind!: string;
    }
    const probe = await LateBoundProbe.create({ lateBoundProbeKind: 'b' });
    const id = probe.id;
    counting.reset();
    await probe.remove();
    expect(counting.calls).toEqual(['evalSha']);
    expect(await LateBoundProbe.exists(id)).toBe(false);
  });
});

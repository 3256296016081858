import { pruneUnusedFunctions } from '../../src/store/prune-functions';
import { allScripts } from '../../src/store/scripts';
import { useTestRedis } from '../support/test-redis';

const redis = useTestRedis();

const library = [
  '-- lib: helpers',
  '-- b doubles',
  'local function b(x)',
  '  return x * 2',
  'end',
  '',
  '-- a calls b',
  'local function a(x)',
  '  return b(x) + 1',
  'end',
  '-- c is never called',
  'local function c()',
  "  return 'c'",
  'end',
  '',
].join('\n');

describe('pruneUnusedFunctions', () => {
  it('keeps what the script calls, directly or through a kept function, in order, and drops the rest', () => {
    const pruned = pruneUnusedFunctions(`${library}\nreturn a(tonumber(ARGV[1]))`);
    expect(pruned).toContain('local function a(x)');
    expect(pruned).toContain('local function b(x)');
    expect(pruned).not.toContain('local function c()');
    expect(pruned).not.toContain('-- c is never called');
    expect(pruned.indexOf('local function b(')).toBeLessThan(pruned.indexOf('local function a('));
  });

  it('refuses a library function whose end is not alone at column 0', () => {
    expect(() => pruneUnusedFunctions('local function broken()\n  return 1\n  end\nreturn broken()')).toThrow(
      "local function broken has no closing 'end' at column 0",
    );
  });

  it('leaves every script of redis-record loadable and runnable by Redis', async () => {
    const pruned = pruneUnusedFunctions(`${library}\nreturn a(tonumber(ARGV[1]))`);
    expect(await redis.raw.eval(pruned, { keys: [], arguments: ['20'] })).toBe(41);
    for (const script of allScripts()) expect(await redis.raw.scriptLoad(script.source)).toBe(script.sha);
  });
});

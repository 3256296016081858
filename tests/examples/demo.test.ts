import { spawnSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createClient } from 'redis';
import { MISSING_REDIS } from '../../tools/private-redis';
import { keysUnder, RawClient, uniquePrefix } from '../support/test-redis';

const root = join(__dirname, '..', '..');
const tsNode = require.resolve('ts-node/dist/bin');

/**
 * Runs the demo the way `npm run demo` does: ts-node compiling with swc, without type-checking (`npm test`'s tsc
 * type-checks examples/). The limit leaves room for a slow day beside the suite's other workers.
 */
const DEMO_LIMIT_MS = 170_000;

function runDemo(env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [tsNode, '--swc', '--project', 'tsconfig.json', 'examples/demo.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: DEMO_LIMIT_MS,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('examples/demo.ts', () => {
  let raw: RawClient;
  beforeAll(async () => {
    raw = createClient({ url: process.env.REDIS_URL });
    await raw.connect();
  });
  afterAll(async () => {
    await raw.close();
  });

  it(
    'tells the whole story on the test run’s Redis and leaves no key behind',
    async () => {
      const prefix = uniquePrefix('demo');
      const { status, stdout, stderr } = runDemo({ ...process.env, DEMO_PREFIX: prefix });

      expect(stderr).not.toMatch(/demo failed|Error/);
      expect(status).toBe(0);
      expect(stdout).toContain(`REDIS_URL at ${process.env.REDIS_URL}, prefix "${prefix}"`);
      expect(stdout).toContain('Post.create -> id 1: {"id":"1","title":"Hello, Redis!","slug":"hello-redis","views":0,"tags":["intro"]}');
      expect(stdout).toContain('"views":1,"publishedAt":"2025-01-02T03:04:05.678Z"');
      expect(stdout).toContain('Post.findMany(["1","99","2"]) -> ["Hello, Redis!",null,"Second post"]');
      expect(stdout).toContain('ValidationError: title: title should not be empty');
      expect(stdout).toContain('nothing written: Post.count() is still 2');
      for (const key of ['all', 'obj:1', 'obj:2', 'seq']) expect(stdout).toContain(`${prefix}:{Post}:${key}`);
      const hash = stdout.split('\n').find((line) => line.startsWith(`HGETALL ${prefix}:{Post}:obj:1 -> `));
      expect(JSON.parse(hash!.slice(hash!.indexOf('-> ') + 3))).toEqual({
        '#id': '1',
        title: 'Hello, Redis!',
        slug: 'hello-redis',
        views: '1',
        tags: '["intro"]',
        publishedAt: '1735787045678',
      });
      expect(stdout).toContain('post.remove() -> Post.exists("1") is false, Post.count() is 1');
      expect(stdout).toContain(`cleanup: deleted 3 keys under "${prefix}:" and "${prefix}#models"`);

      expect(await keysUnder(raw, prefix)).toEqual([]);
      // the prefix's registry of model definitions lies outside `<prefix>:`, and goes too
      expect(await raw.exists(`${prefix}#models`)).toBe(0);
    },
    DEMO_LIMIT_MS + 10_000,
  );

  it('refuses to run under a prefix that already holds keys, and touches none of them', async () => {
    const prefix = uniquePrefix('demo');
    await raw.set(`${prefix}:someone-else`, 'theirs');
    try {
      const { status, stderr } = runDemo({ ...process.env, DEMO_PREFIX: prefix });
      expect(status).toBe(1);
      expect(stderr).toContain(`keys already exist under "${prefix}:"; set DEMO_PREFIX`);
      expect(await keysUnder(raw, prefix)).toEqual([`${prefix}:someone-else`]);
    } finally {
      await raw.del(`${prefix}:someone-else`);
    }
  });

  it('refuses a prefix whose registry of model definitions exists, and leaves the registry as it was', async () => {
    const prefix = uniquePrefix('demo');
    await raw.hSet(`${prefix}#models`, 'Post', 'theirs');
    try {
      const { status, stderr } = runDemo({ ...process.env, DEMO_PREFIX: prefix });
      expect(status).toBe(1);
      expect(stderr).toContain(`"${prefix}#models" already exists; set DEMO_PREFIX`);
      expect(await raw.hGetAll(`${prefix}#models`)).toEqual({ Post: 'theirs' });
      expect(await keysUnder(raw, prefix)).toEqual([]);
    } finally {
      await raw.del(`${prefix}#models`);
    }
  });

  it('without redis-server and without REDIS_URL, exits with one line naming both fixes', () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'no-redis-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: emptyPath };
      delete env.REDIS_URL;
      const { status, stdout, stderr } = runDemo(env);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(`${MISSING_REDIS}\n`);
    } finally {
      rmSync(emptyPath, { recursive: true, force: true });
    }
  });
});

import { readFileSync } from 'fs';
import { join } from 'path';
import { createClient } from 'redis';
import { registryKey } from '../../src/admin';
import { CLUSTER_PAGES, guidePages, typeScriptBlocks } from '../support/doc-programs';
import { compileDocPages, connectedPrefix, DocPages } from '../support/doc-runner';
import { RawClient } from '../support/test-redis';

// The code of the guide and of the README runs as written. Each page's TypeScript blocks, as one program,
// type-check against the library with the project's compiler options (under `npm test`, in `npm run
// typecheck`), then run in a Node.js process of their own against the library compiled to CommonJS
// (tests/support/doc-runner.ts), with
// REDIS_URL naming a logical database of the run's Redis that no other test uses. The page connects and
// disconnects by itself; every `// => value` and `// throws Error` annotation is checked; the page writes
// nothing outside its own prefix, and its keys are deleted afterwards. The cluster page runs on a Redis
// Cluster in tests/cluster/docs-code.test.ts.
const root = join(__dirname, '..', '..');
const pages = guidePages(root);
/** The pages with TypeScript blocks: the ones that run (the cluster page on a cluster, in tests/cluster). */
const withCode = pages.filter(([dir, page]) => typeScriptBlocks(readFileSync(join(dir, page), 'utf8')).length > 0).map(([, page]) => page);
const standalone = withCode.filter((page) => !CLUSTER_PAGES.includes(page));

/** The URL of the run's Redis with logical database `database`. */
function inDatabase(url: string, database: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

describe('the code of the guide', () => {
  let compiled: DocPages;
  let raw: RawClient;
  let database: number;
  let databaseUrl: string;

  beforeAll(async () => {
    compiled = compileDocPages(root, pages);
    // the first logical database holding nothing: the pages' own (the other tests use database 0)
    for (database = 1; database < 16; database++) {
      databaseUrl = inDatabase(process.env.REDIS_URL!, database);
      raw = createClient({ url: databaseUrl });
      await raw.connect();
      if ((await raw.dbSize()) === 0) return;
      raw.destroy();
    }
    throw new Error(`no empty logical database on ${process.env.REDIS_URL} to run the guide's pages in`);
  }, 300_000);

  afterAll(async () => {
    compiled?.remove();
    if (raw?.isOpen) await raw.close();
  });

  /** Every key the page left, deleted; those outside its prefix named. */
  async function keysOutside(prefix: string | undefined): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of raw.scanIterator({ COUNT: 1000 })) keys.push(...batch);
    for (let i = 0; i < keys.length; i += 500) await raw.del(keys.slice(i, i + 500));
    return keys.filter((key) => prefix === undefined || !(key.startsWith(`${prefix}:`) || key === registryKey(prefix))).sort();
  }

  it('is found: the pages with TypeScript blocks', () => {
    expect([...compiled.programs.keys()].sort()).toEqual([...withCode].sort());
    expect(withCode).toEqual(
      expect.arrayContaining([
        'README.md',
        'getting-started.md',
        'models.md',
        'indexes-and-queries.md',
        'bulk-operations.md',
        'writes.md',
        'transactions-and-retries.md',
        'examples.md',
      ]),
    );
    expect([...compiled.programs.values()].map((program) => program.text).join('\n')).toContain('expectValue(');
  });

  it('gives each page a prefix of its own', () => {
    const prefixes = [...compiled.programs.values()].map(connectedPrefix);
    expect(prefixes).not.toContain(undefined);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it.each(standalone)('%s starts by connecting to REDIS_URL under its own prefix, and ends by disconnecting', (page) => {
    const program = compiled.programs.get(page)!;
    const [first] = program.blocks;
    expect(first).toContain("connect({ url: process.env.REDIS_URL ?? 'redis://localhost:6379', prefix: '");
    // every URL the page names is the fallback of REDIS_URL
    expect(new Set(program.blocks.join('\n').match(/rediss?:\/\/[^'"]*/g))).toEqual(new Set(['redis://localhost:6379']));
    expect(program.blocks[program.blocks.length - 1]).toContain('await disconnect();');
  });

  it.each(CLUSTER_PAGES)('%s type-checks (it runs on a cluster in tests/cluster)', (page) => {
    expect(compiled.errors.get(page)).toEqual([]);
  });

  it.each(standalone)(
    '%s type-checks, runs as written, and what it says of its values holds',
    async (page) => {
      const program = compiled.programs.get(page)!;
      expect(compiled.errors.get(page)).toEqual([]);
      const problems = await compiled.run(page, databaseUrl);
      const strays = (await keysOutside(connectedPrefix(program))).map((key) => `${page}: wrote outside its prefix: ${key}`);
      expect([...problems, ...strays]).toEqual([]);
    },
    180_000,
  );
});

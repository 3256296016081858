/**
 * What a kept instance costs the application's heap: the suite's posts (bench/workloads/posts.ts) built with
 * `build()`, then saved with `saveMany` (one call), then the same objects read back with `findMany`, and, as
 * the baseline, the plain attribute objects they were built from. Each step is measured with V8's heap after
 * two full collections, as bytes per instance kept by the step (so "saveMany" is what saving adds to a built
 * instance: its id, its state and its snapshot). Prints a table. Heap figures do not drift with the machine's
 * load, so unlike speed they compare across runs and machines with the same Node.js.
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/instance-memory.ts [--n=100000]
 *
 * A private redis-server is started unless REDIS_URL is set; keys go under a fresh prefix, removed at the end.
 */
import 'reflect-metadata';
import { positiveInteger } from './support/args';
import { describeRedis } from './support/bench-redis';
import { runBenchSession } from './support/bench-session';
import { check } from './support/measure';
import { printTable } from './support/table';
import { suitePostAttributes, SuitePost } from './peers/redis-record-peer';
import { makePosts } from './workloads/posts';

const N = positiveInteger('n', 'N', 100_000);

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc (see the header of bench/instance-memory.ts)');

/** The heap in use after two full collections (the second finishes what weak references held back). */
function heapUsed(): number {
  collect!();
  collect!();
  return process.memoryUsage().heapUsed;
}

runBenchSession('mem', async ({ url }) => {
  const { posts } = makePosts(N, 7);
  const start = heapUsed();
  const attributes = posts.map(suitePostAttributes);
  const afterAttributes = heapUsed();
  const built = attributes.map((input) => SuitePost.build(input));
  const afterBuild = heapUsed();
  const result = await SuitePost.saveMany(built);
  check(result.ok && result.saved.length === N, `saveMany failed ${result.failed.length} items`);
  const afterSave = heapUsed();
  const loaded = await SuitePost.findMany(built.map((post) => post.id!));
  check(
    loaded.every((post) => post !== null),
    'findMany: a post is missing',
  );
  const afterLoad = heapUsed();
  const per = (bytes: number) => (bytes / N).toFixed(0);
  console.log(
    `client heap per instance, ${N.toLocaleString('en-US')} of the suite's posts, Node ${process.version}, ${describeRedis(url)}`,
  );
  printTable(
    ['step', 'bytes kept per instance'],
    ['left', 'right'],
    [
      ['the attribute objects given to build() (their strings are shared)', per(afterAttributes - start)],
      ['build(): the instances', per(afterBuild - afterAttributes)],
      ['saveMany(): what saving adds to them (id, state, snapshot)', per(afterSave - afterBuild)],
      ['findMany(): loaded instances (attributes, id, state, snapshot)', per(afterLoad - afterSave)],
    ],
  );
  // keep everything measured alive until the last reading
  check(attributes.length + built.length + loaded.length === 3 * N, 'lost an instance');
});

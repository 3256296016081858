import { join } from 'path';
import { registryKey } from '../../src/admin';
import { scanKeys, unlinkKeys } from '../support/cluster-view';
import { CLUSTER_PAGES } from '../support/doc-programs';
import { compileDocPages, connectedPrefix, DocPages } from '../support/doc-runner';
import { useTestCluster } from '../support/test-cluster';

// The cluster page's code, as tests/examples/docs-code.test.ts runs the others: its blocks as one program,
// type-checked, then run as written in a process of its own, with REDIS_URL naming a node of a real Redis
// Cluster (3 masters, 3 replicas), its annotations checked. It writes nothing outside its prefix, whose keys
// are deleted afterwards.
const root = join(__dirname, '..', '..');
const cluster = useTestCluster({ connectRecord: false });

describe('the code of the guide on a cluster', () => {
  let compiled: DocPages;
  beforeAll(() => {
    compiled = compileDocPages(
      root,
      CLUSTER_PAGES.map((page) => [join(root, 'docs'), page] as const),
    );
  }, 300_000);
  afterAll(() => compiled?.remove());

  it.each(CLUSTER_PAGES)('%s runs as written on a Redis Cluster, and what it says of its values holds', async (page) => {
    const program = compiled.programs.get(page)!;
    expect(program.blocks[0]).toContain('process.env.REDIS_URL');
    expect(program.text).toContain('expectValue(');
    expect(compiled.errors.get(page)).toEqual([]);
    const problems = await compiled.run(page, cluster.rootNodes[0].url);
    const prefix = connectedPrefix(program)!;
    const keys: string[] = [];
    // on the file's own cluster every key is the page's; on a cluster of REDIS_CLUSTER_URLS, only its prefix's
    const pattern = cluster.servers ? '*' : `${prefix}*`;
    for await (const batch of scanKeys(cluster.cluster, { MATCH: pattern, COUNT: 1000 })) keys.push(...batch);
    await unlinkKeys(cluster.cluster, keys);
    const strays = keys.filter((key) => !key.startsWith(`${prefix}:`) && key !== registryKey(prefix));
    expect([...problems, ...strays.map((key) => `${page}: wrote outside its prefix: ${key}`)]).toEqual([]);
  });
});

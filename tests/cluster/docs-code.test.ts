import { join } from 'path';
import { CLUSTER_PAGES, compileDocs, docProgram, libraryExports } from '../support/doc-programs';
import { runDocPage } from '../support/doc-runner';
import { useTestCluster } from '../support/test-cluster';

// The cluster page's code, as tests/examples/docs-code.test.ts runs the others: its blocks as one program,
// type-checked, then run on a real Redis Cluster (3 masters, 3 replicas) with its annotations checked.
const root = join(__dirname, '..', '..');
const cluster = useTestCluster({ connectRecord: false });

describe('the code of the guide on a cluster', () => {
  it.each(CLUSTER_PAGES)('%s runs on a Redis Cluster, and what it says of its values holds', async (page) => {
    const program = docProgram(join(root, 'docs'), page, libraryExports(join(root, 'src', 'index.ts')), true)!;
    expect(program.text).toContain('expectValue(');
    const { errors, javascript } = compileDocs(join(root, 'tsconfig.json'), [program]);
    expect(errors.get(program)).toEqual([]);
    expect(await runDocPage(program, javascript.get(program)!, { url: cluster.rootNodes[0].url, cluster: true })).toEqual([]);
  });
});

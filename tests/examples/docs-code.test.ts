import { readdirSync } from 'fs';
import { join } from 'path';
import { CLUSTER_PAGES, compileDocs, CompiledDocs, docProgram, DocProgram, libraryExports } from '../support/doc-programs';
import { runDocPage } from '../support/doc-runner';

// The code of the guide and of the README holds: each page's TypeScript blocks, made into one program as the
// guide says they read (tests/support/doc-programs.ts), type-check against the library with the project's
// compiler options, and run against the tests' Redis with every `// => value` and `// throws Error`
// annotation of the page checked (tests/support/doc-runner.ts); the cluster page runs on a Redis Cluster in
// tests/cluster/docs-code.test.ts. A renamed method, a dropped option, a wrong
// type, a query the page's indexes cannot answer or a value the page misstates fails here, with its line.
const root = join(__dirname, '..', '..');
const docs = join(root, 'docs');
const exported = libraryExports(join(root, 'src', 'index.ts'));
const pages: Array<[string, string]> = [
  ...readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((page): [string, string] => [docs, page]),
  [root, 'README.md'],
];
const programsOf = (runnable: boolean) =>
  pages.map(([dir, page]) => docProgram(dir, page, exported, runnable)).filter((program): program is DocProgram => program !== undefined);
const checked = programsOf(false);
const runnable = programsOf(true);

describe('the code of the guide', () => {
  let compiled: CompiledDocs;

  beforeAll(() => {
    compiled = compileDocs(join(root, 'tsconfig.json'), [...checked, ...runnable]);
  });

  it('is found: the pages with TypeScript blocks', () => {
    expect(checked.map((program) => program.page)).toEqual(
      expect.arrayContaining([
        'README.md',
        'getting-started.md',
        'models.md',
        'indexes-and-queries.md',
        'bulk-operations.md',
        'examples.md',
      ]),
    );
    expect(exported).toEqual(expect.arrayContaining(['BaseEntity', 'Model', 'Attr', 'Where', 'SortableString']));
    expect(runnable.map((program) => program.text).join('\n')).toContain('expectValue(');
  });

  it.each(checked.map((program) => program.page))('%s type-checks', (page) => {
    expect(compiled.errors.get(checked.find((program) => program.page === page)!)).toEqual([]);
  });

  it.each(runnable.filter((program) => !CLUSTER_PAGES.includes(program.page)).map((program) => program.page))(
    '%s runs, and what it says of its values holds',
    async (page) => {
      const program = runnable.find((candidate) => candidate.page === page)!;
      expect(compiled.errors.get(program)).toEqual([]);
      expect(await runDocPage(program, compiled.javascript.get(program)!, { url: process.env.REDIS_URL!, cluster: false })).toEqual([]);
    },
  );
});

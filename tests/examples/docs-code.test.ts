import { readdirSync } from 'fs';
import { join } from 'path';
import { docProgram, DocProgram, libraryExports, typeErrors } from '../support/doc-programs';

// The guide's code (and the README's) compiles against the library as it is: each page's TypeScript blocks, made into one
// program as the guide says they read (tests/support/doc-programs.ts), are type-checked with the project's
// compiler options. A renamed method, a dropped option or a wrong type in a page fails here, with the page's
// line.
const root = join(__dirname, '..', '..');
const docs = join(root, 'docs');
const exported = libraryExports(join(root, 'src', 'index.ts'));
const programs = [
  ...readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((page) => docProgram(docs, page, exported)),
  docProgram(root, 'README.md', exported),
].filter((program): program is DocProgram => program !== undefined);

describe('the code of the guide', () => {
  let errors: Map<string, string[]>;

  beforeAll(() => {
    errors = typeErrors(join(root, 'tsconfig.json'), programs);
  });

  it('is found: the pages with TypeScript blocks', () => {
    expect(programs.map((program) => program.page)).toEqual(
      expect.arrayContaining(['README.md', 'getting-started.md', 'models.md', 'indexes-and-queries.md', 'bulk-operations.md', 'examples.md']),
    );
    expect(exported).toEqual(expect.arrayContaining(['BaseEntity', 'Model', 'Attr', 'Where', 'SortableString']));
  });

  it.each(programs.map((program) => program.page))('%s type-checks', (page) => {
    expect(errors.get(page)).toEqual([]);
  });
});

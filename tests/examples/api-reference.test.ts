import { execFile } from 'child_process';
import { join } from 'path';
import { promisify, stripVTControlCharacters } from 'util';

// The API reference (`npm run docs`, typedoc) is whole: every type the public API refers to has its page (a
// type left out shows as a bare name), and every exported declaration and member has a doc comment (typedoc.json's
// `validation`). typedoc warns of either; checked without writing the pages (--emit none), every warning failing
// the run.
const root = join(__dirname, '..', '..');
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');

it('typedoc builds the API reference without a warning: no type left out, nothing undocumented', async () => {
  const run = await promisify(execFile)(process.execPath, [typedoc, '--emit', 'none', '--treatWarningsAsErrors'], { cwd: root }).then(
    ({ stdout, stderr }) => ({ failed: false, output: stdout + stderr }),
    (error: { stdout?: string; stderr?: string }) => ({ failed: true, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  expect(
    stripVTControlCharacters(run.output)
      .split('\n')
      .filter((line) => /warning|error/i.test(line)),
  ).toEqual([]);
  expect(run.failed).toBe(false);
}, 300_000);

import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';

// The documentation set stays navigable: every guide page is listed in the index, and every relative
// link of the Markdown pages names a file that exists.
const root = join(__dirname, '..', '..');
const docs = join(root, 'docs');
const pages = readdirSync(docs).filter((name) => name.endsWith('.md'));

/** The relative link targets of a Markdown file, without their #fragment (external links left out). */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  return targets
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]);
}

describe('documentation links', () => {
  it('docs/index.md links every page of docs/', () => {
    const linked = new Set(relativeLinks(join(docs, 'index.md')));
    expect(pages.filter((page) => page !== 'index.md' && !linked.has(page))).toEqual([]);
  });

  it.each([...pages.map((page) => join('docs', page)), 'README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'])(
    '%s links only files that exist',
    (file) => {
      const path = join(root, file);
      const missing = relativeLinks(path).filter((target) => !existsSync(resolve(dirname(path), target)));
      expect(missing).toEqual([]);
    },
  );
});

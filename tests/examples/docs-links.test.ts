import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import GithubSlugger from 'github-slugger';

// The documentation set stays navigable: every guide page and design note is listed in the index, every relative link of
// the Markdown pages names a file that exists, and every #fragment names a heading of its page (as GitHub
// makes heading anchors: github-slugger).
const root = join(__dirname, '..', '..');
const docs = join(root, 'docs');
/** The guide's pages and the design notes, as paths under docs/. */
const pages = [
  ...readdirSync(docs).filter((name) => name.endsWith('.md')),
  ...readdirSync(join(docs, 'design'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `design/${name}`),
];
/** Every Markdown file of the documentation, from the root. */
const markdownFiles = [...pages.map((page) => join('docs', page)), 'README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'];

/** A Markdown file's text without its fenced code blocks (whose lines are neither links nor headings). */
const prose = (file: string) => readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');

/** The relative link targets of a Markdown file, fragments kept (external links left out). */
function relativeTargets(file: string): string[] {
  return [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

/** The relative link targets of a Markdown file, without their #fragment (links within the page left out). */
function relativeLinks(file: string): string[] {
  return relativeTargets(file)
    .filter((target) => !target.startsWith('#'))
    .map((target) => target.split('#')[0]);
}

/** The anchors GitHub gives the headings of a Markdown file, read once per file. */
const anchors = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let found = anchors.get(file);
  if (!found) {
    const slugger = new GithubSlugger();
    found = new Set([...prose(file).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) => slugger.slug(match[1])));
    anchors.set(file, found);
  }
  return found;
}

describe('documentation links', () => {
  it('docs/index.md links every page of docs/ and docs/design/', () => {
    const linked = new Set(relativeLinks(join(docs, 'index.md')));
    expect(pages.filter((page) => page !== 'index.md' && !linked.has(page))).toEqual([]);
  });

  it.each(markdownFiles)('%s links only files that exist', (file) => {
    const path = join(root, file);
    const missing = relativeLinks(path).filter((target) => !existsSync(resolve(dirname(path), target)));
    expect(missing).toEqual([]);
  });

  it.each(markdownFiles)("%s's #fragments name headings that exist", (file) => {
    const path = join(root, file);
    const unknown = relativeTargets(path)
      // fragments of Markdown pages: this page's (no path) or another's
      .filter((target) => /^(.*\.md)?#/.test(target))
      .filter((target) => {
        const [page, fragment] = target.split('#');
        const linked = page === '' ? path : resolve(dirname(path), page);
        return !existsSync(linked) || !anchorsOf(linked).has(fragment);
      });
    expect(unknown).toEqual([]);
  });
});

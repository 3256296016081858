import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { END_MARKER, START_MARKER, updateReadme } from '../../bench/report/readme-summary';

/** The suite writes README.md between its markers only: the text around them is another author's. */
describe('updateReadme', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'redis-record-readme-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('replaces what is between the markers, twice in a row, and nothing else', () => {
    const file = join(dir, 'README.md');
    const before = '# title\n\n## How it compares\n\n';
    const after = '\n\nText below the table.\n';
    writeFileSync(file, `${before}${START_MARKER}\n${END_MARKER}${after}`);
    expect(updateReadme(file, '| a | b |')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${before}${START_MARKER}\n| a | b |\n${END_MARKER}${after}`);
    expect(updateReadme(file, 'second')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${before}${START_MARKER}\nsecond\n${END_MARKER}${after}`);
  });

  test('leaves a file without both markers, or with them out of order, as it was', () => {
    for (const text of ['no markers at all\n', `${START_MARKER} only\n`, `${END_MARKER}\n${START_MARKER}\n`]) {
      const file = join(dir, 'README.md');
      writeFileSync(file, text);
      expect(updateReadme(file, 'summary')).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });
});

import { describeBlog } from '../support/decorator-forms/blog-scenario';
import { Author, Note, Pinned, Post, Tag } from '../support/decorator-forms/legacy-blog-models';

// The blog written with legacy decorators: its twin, tests/decorators-standard/blog.test.ts, runs the same tests.
describeBlog(
  'legacy decorators',
  { Author, Post, Tag, Note, Pinned },
  { Author: 'LegAuthor', Post: 'LegPost', Tag: 'LegTag', Note: 'LegNote', Pinned: 'LegPinned' },
);

describe('the compiler settings of this file', () => {
  it('give legacy decorators, with design:type', () => {
    expect(Object.getOwnPropertySymbols(Post)).not.toContain((Symbol as unknown as { metadata: symbol }).metadata);
    expect(Reflect.getMetadata('design:type', Post.prototype, 'title')).toBe(String);
  });
});

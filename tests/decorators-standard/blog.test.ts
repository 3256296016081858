import { describeBlog } from '../support/decorator-forms/blog-scenario';
import { Author, Note, Pinned, Post, Tag } from './blog-models';

// The blog written with standard decorators (this folder is compiled without experimentalDecorators).
describeBlog(
  'standard decorators',
  { Author, Post, Tag, Note, Pinned },
  { Author: 'StdAuthor', Post: 'StdPost', Tag: 'StdTag', Note: 'StdNote', Pinned: 'StdPinned' },
);

describe('the compiler settings of this folder', () => {
  it('give standard decorators: a metadata object per class, and no design:type', () => {
    expect(Object.getOwnPropertySymbols(Post)).toContain((Symbol as unknown as { metadata: symbol }).metadata);
    expect(Reflect.getMetadata('design:type', Post.prototype, 'title')).toBeUndefined();
  });
});

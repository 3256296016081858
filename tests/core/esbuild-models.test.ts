import { transformSync } from 'esbuild';
import * as redisRecord from '../../src';
import { BaseEntity, SchemaError } from '../../src';
import { useTestRedis } from '../support/test-redis';

/**
 * Models compiled by esbuild (as tsx, Vite and many bundlers do), which emits no decorator metadata in either
 * decorator form: an attribute whose type neither its options nor its default value tell is a SchemaError that
 * names the option to add, and one that declares it works.
 */

type Form = 'legacy' | 'standard';

/** Compiles `source` with esbuild in the given form and runs it, `redis-record` being the library under test. */
function compileAndRun(source: string, form: Form): Record<string, unknown> {
  const { code } = transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'es2022',
    // esbuild ignores emitDecoratorMetadata: asking for it changes nothing
    tsconfigRaw: { compilerOptions: { experimentalDecorators: form === 'legacy', emitDecoratorMetadata: true } },
  });
  const module = { exports: {} as Record<string, unknown> };
  const load = (name: string): unknown => (name === 'redis-record' ? redisRecord : require(name));
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  return module.exports;
}

/** The SchemaError that compiling and running `source` throws (it defines a model). */
function definitionError(source: string, form: Form): SchemaError {
  try {
    compileAndRun(source, form);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaError);
    return error as SchemaError;
  }
  throw new Error('the model was defined without an error');
}

const redis = useTestRedis();

describe.each<Form>(['legacy', 'standard'])('a model compiled by esbuild, %s decorators', (form) => {
  const suffix = form === 'legacy' ? 'Leg' : 'Std';

  it('names the option to add when an attribute gives no type', () => {
    const source = `
      import { Attr, BaseEntity, Model } from 'redis-record';
      @Model() export class EsUntyped${suffix} extends BaseEntity {
        @Attr() title?: string;
      }`;
    expect(definitionError(source, form).message).toBe(
      `EsUntyped${suffix}.title: no type information for this attribute (the compiler emits no decorator metadata): ` +
        `declare it, @Attr({ type: 'string' }) (types: string, number, boolean, date, json; or @Attr({ codec }))`,
    );
  });

  it('suggests json for a default value that is an object', () => {
    const source = `
      import { Attr, BaseEntity, Model } from 'redis-record';
      @Model() export class EsUntypedList${suffix} extends BaseEntity {
        @Attr() tags: string[] = [];
      }`;
    expect(definitionError(source, form).message).toMatch(
      new RegExp(`^EsUntypedList${suffix}\\.tags: no type information .*: declare it, @Attr\\(\\{ type: 'json' \\}\\)`),
    );
  });

  it('works when the type is declared or told by the default value', async () => {
    const source = `
      import { Attr, BaseEntity, Counter, Index, Model, Unique } from 'redis-record';
      @Model() export class EsPost${suffix} extends BaseEntity {
        @Attr({ type: 'string' }) @Index() title?: string;
        @Attr({ type: 'string' }) @Unique() slug?: string;
        @Attr({ type: 'date' }) publishedAt?: Date;
        @Attr() draft = true;
        @Counter() views = 0;
      }`;
    const Post = compileAndRun(source, form)[`EsPost${suffix}`] as EsPostModel;
    const post = await Post.create({ title: 'Hello', slug: 'hello', publishedAt: new Date(5) });
    expect(await redis.raw.hGetAll(`${redis.prefix}:{EsPost${suffix}}:obj:${post.id}`)).toMatchObject({
      title: 'Hello',
      slug: 'hello',
      publishedAt: '5',
      draft: 'true',
      views: '0',
    });
    expect(await post.increment('views')).toBe(1);
    const [found] = await Post.findBy({ title: 'Hello' });
    expect(found.toJSON()).toEqual({ id: post.id, title: 'Hello', slug: 'hello', publishedAt: new Date(5), draft: true, views: 1 });
    await expect(Post.create({ slug: 'hello' })).rejects.toThrow(/slug/);
  });
});

/** The type of the models compiled above (declared here: esbuild's output is not type-checked). */
interface EsPost extends BaseEntity {
  title?: string;
  slug?: string;
  publishedAt?: Date;
  draft: boolean;
  views: number;
}
type EsPostModel = typeof BaseEntity & (new () => EsPost);

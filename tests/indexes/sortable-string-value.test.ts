import 'reflect-metadata';
import ts from 'typescript';
import { Attr, BaseEntity, Index, Model, SortableString } from '../../src';
import { typeFromDesignType } from '../../src/codecs/attribute-type';
import { useTestRedis } from '../support/test-redis';

/**
 * `SortableString` is a type and a function of the same name. tsc, seeing the whole program, emits `String` as
 * the `design:type` of an attribute declared with it; a compiler that transpiles each file alone cannot see
 * through the imported type and emits the function instead (else it would emit `Object`, which @Attr cannot
 * read). Either is read as a string attribute.
 */

const redis = useTestRedis();

/** What a file-by-file compiler (isolatedModules) emits for a SortableString attribute. */
const transpiled = ts.transpileModule(
  [
    "import { Attr, BaseEntity, Index, Model, SortableString } from 'redis-record';",
    '@Model() export class Person extends BaseEntity {',
    '  @Attr() @Index({ sortable: true }) name!: SortableString;',
    '}',
  ].join('\n'),
  {
    compilerOptions: {
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      isolatedModules: true,
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
    },
  },
).outputText;

// The same model, its metadata written as that compiler writes it (the test runs under either kind of compiler).
@Model()
class SsPerson extends BaseEntity {
  @Attr() @Index({ sortable: true }) @Reflect.metadata('design:type', SortableString) name!: SortableString;
}

describe('SortableString, a type with a value of the same name', () => {
  it('is what a file-by-file compiler emits as the design:type, when there is such a value', () => {
    expect(transpiled).toMatch(
      /__metadata\("design:type", typeof \(_a = typeof redis_record_1\.SortableString !== "undefined" && redis_record_1\.SortableString\) === "function" \? _a : Object\)/,
    );
    expect(typeof SortableString).toBe('function');
    expect(Reflect.getMetadata('design:type', SsPerson.prototype, 'name')).toBe(SortableString);
  });

  it('is read as a string attribute, and its sortable index works', async () => {
    expect(typeFromDesignType(SortableString)).toBe('string');
    expect(typeFromDesignType(String)).toBe('string');
    await SsPerson.saveMany([{ name: 'cleo' }, { name: 'ann' }, { name: 'bob' }]);
    const names = (await SsPerson.findBy({ name: { gte: 'b' } }, { orderBy: { name: 'asc' } })).map((person) => person.name);
    expect(names).toEqual(['bob', 'cleo']);
    const stored = await redis.raw.zRange(`${redis.prefix}:{SsPerson}:lex:name`, 0, -1);
    expect(stored).toHaveLength(3);
  });

  it('called, returns the string it is given', () => {
    const name: SortableString = SortableString('ann');
    expect(name).toBe('ann');
  });
});

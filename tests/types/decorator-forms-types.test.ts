import { Attr, BaseEntity, BeforeSave, Index, Model, SchemaError } from '../../src';
import { descriptorOf } from '../../src/model/model-registry';

/**
 * What the compiler accepts and refuses, in the legacy form (experimentalDecorators), in the declarations that the
 * standard form checks too (tests/types/standard): `@Attr({ type })` against the declared type, and where each
 * decorator goes. ts-jest type-checks this file: every `// @ts-expect-error` line must fail to compile, and every
 * other line must compile. Each test also runs, and asserts what happens at runtime.
 */

describe('@Attr({ type }) and the declared type, legacy form', () => {
  it('goes on a property declared with the values of the type (and SchemaError at runtime otherwise)', () => {
    @Model()
    class LegTyped extends BaseEntity {
      @Attr({ type: 'string' }) status?: 'draft' | 'published';
      @Attr({ type: 'number' }) rank: number | null = null;
      @Attr({ type: 'json' }) tags: string[] = [];
      // a property the key does not name (a private one) is left to the run-time check
      @Attr({ type: 'date' }) private at?: Date;
      when(): Date | undefined {
        return this.at;
      }
    }
    expect(descriptorOf(LegTyped).attributes.map((a) => a.type)).toEqual(['string', 'number', 'json', 'date']);
    expect(() => {
      @Model()
      class LegTypedWrong extends BaseEntity {
        // @ts-expect-error a boolean attribute on a property declared as a string
        @Attr({ type: 'boolean' }) label?: string;
      }
      return LegTypedWrong;
    }).toThrow(new SchemaError('LegTypedWrong.label: declared as string but given type boolean'));
  });
});

describe('where each decorator goes, legacy form', () => {
  it('an attribute on a field, not on a method or a getter', () => {
    expect(() => {
      @Model()
      class LegAttrMethod extends BaseEntity {
        // @ts-expect-error an attribute goes on a field
        @Attr({ type: 'string' }) label(): string {
          return '';
        }
      }
      return LegAttrMethod;
    }).toThrow(new SchemaError('LegAttrMethod.label: @Attr goes on a field, and label is a method'));
    expect(() => {
      @Model()
      class LegIndexGetter extends BaseEntity {
        // a getter is indexed as a computed value: @Computed() says so
        @Index() get label(): string {
          return '';
        }
      }
      return LegIndexGetter;
    }).toThrow(new SchemaError('LegIndexGetter.label: @Index needs @Attr() on the same property (or @Computed() on a getter)'));
  });

  it('a hook on a method, not on a field', () => {
    expect(() => {
      @Model()
      class LegHookField extends BaseEntity {
        @Attr() tag?: string;
        // @ts-expect-error a hook goes on a method
        @BeforeSave stamp = () => undefined;
      }
      return LegHookField;
    }).toThrow(new SchemaError('LegHookField.stamp: @BeforeSave goes on a method, and stamp is a field'));
  });

  it('a decorator factory is called: @Attr(), @Model()', () => {
    expect(() => {
      @Model()
      class LegBareAttr extends BaseEntity {
        // @ts-expect-error @Attr makes the decorator: @Attr()
        @Attr title?: string;
      }
      return LegBareAttr;
    }).toThrow(new SchemaError('LegBareAttr.title: write @Attr() with parentheses (@Attr makes the decorator)'));
    expect(() => {
      // @ts-expect-error @Model makes the decorator: @Model()
      @Model
      class LegBareModel extends BaseEntity {}
      return LegBareModel;
    }).toThrow(new SchemaError('LegBareModel: write @Model() with parentheses (@Model makes the decorator)'));
  });
});

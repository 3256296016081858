import 'reflect-metadata';
import { AttributeType } from '../codecs/attribute-type';
import { checkAttributeName } from '../model/attribute-name';
import { decoratorOptions } from '../model/decorator-options';
import { addPendingAttribute } from '../model/pending-metadata';
import type { NotAMethod } from './decorator-types';
import { memberDecorator, refusedBareUse } from './member-decorator';

/** The options of `@Computed`: the stored type, where the compiler emits no type of the getter (standard decorators). */
export interface ComputedOptions {
  /** The stored type of the getter's value; inferred from its declared return type where decorator metadata is emitted. */
  type?: AttributeType;
}

/** The decorator `@Computed()` returns: it goes on a getter. */
export interface ComputedDecorator {
  /** Legacy form: the getter's descriptor (a method's does not compile). */
  <V>(target: object, property: string | symbol, descriptor: TypedPropertyDescriptor<V> & NotAMethod<V>): void;
  /** Standard form. */
  (value: () => unknown, context: ClassGetterDecoratorContext): void;
}

const COMPUTED_OPTIONS = ['type'] as const satisfies ReadonlyArray<keyof ComputedOptions>;

/**
 * A computed value: the getter's value is stored with the object at each write (save, create, saveMany) and can be
 * indexed like an attribute (`@Computed() @Index() get domain() { ... }`), for where, orderBy and uniques. It is
 * read-only: build() and create() refuse it (docs/array-computed-compound-indexes.md#computed-values).
 */
export function Computed(options?: ComputedOptions): ComputedDecorator {
  if (refusedBareUse('@Computed', arguments)) return undefined as never;
  return memberDecorator('@Computed', 'getter', (target, property) => {
    checkAttributeName('@Computed', target, property);
    const owner = target.constructor.name;
    const checked = decoratorOptions(`${owner}.${property}`, '@Computed', options, COMPUTED_OPTIONS);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner, designType, options: checked, declaredBy: '@Computed', computed: true });
  }) as ComputedDecorator;
}

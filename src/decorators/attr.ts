import 'reflect-metadata';
import { Codec } from '../codecs/codec';
import { AttributeType } from '../codecs/attribute-type';
import { checkAttributeName } from '../model/attribute-name';
import { decoratorOptions } from '../model/decorator-options';
import { addPendingAttribute } from '../model/pending-metadata';
import type { DeclaredExactly } from './declared-exactly';

/** The options of `@Attr`: `type` or `codec`, one at most (docs/models.md). */
export interface AttrOptions {
  /** The stored type; inferred from the declared TypeScript type, or the default value, for string, number, boolean and Date. */
  type?: AttributeType;
  /** Custom serialization: `encode` to a string, `decode` back. Replaces `type`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any value type; the decorator's key argument checks it
  codec?: Codec<any>;
}

/** The names `@Attr` takes (any other is a SchemaError: a misspelt `tpye` would be ignored). */
const ATTR_OPTIONS = ['type', 'codec'] as const satisfies ReadonlyArray<keyof AttrOptions>;

/**
 * What `@Attr({ codec })` is applied to: a property `K` of the prototype `P` whose declared type (less null and
 * undefined) is the codec's value type `V`. Another type makes the key argument fail to compile, with this
 * message in the error.
 */
export type HoldsCodecValue<P, K, V> = DeclaredExactly<P, K, V, CodecMismatch>;
/**
 * What `@Attr({ codec })` asks for: a property declared (less null and undefined) as the codec's value type. A
 * property declared otherwise makes the decorator's key argument fail to compile.
 */
export type CodecMismatch = {
  /** What the declaration should be: shown in the compiler's error. */
  mismatch: "a property declared with the codec's value type";
};

/** The decorator `@Attr({ codec })` returns, for a codec of values `V`. */
export type CodecAttrDecorator<V> = <P extends object, K extends string | symbol>(
  target: P,
  property: K & HoldsCodecValue<P, K, V>,
) => void;

/** Marks a property as a persisted attribute; `@Model` resolves its type when the class is defined. */
export function Attr<V>(options: AttrOptions & { codec: Codec<V> }): CodecAttrDecorator<V>;
export function Attr(options?: AttrOptions): PropertyDecorator;
export function Attr(given?: AttrOptions): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    checkAttributeName('@Attr', target, property);
    const options = decoratorOptions(`${target.constructor.name}.${property}`, '@Attr', given, ATTR_OPTIONS);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner: target.constructor.name, designType, options, declaredBy: '@Attr' });
  };
}

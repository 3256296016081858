import 'reflect-metadata';
import { Codec } from '../codecs/codec';
import { AttributeType } from '../codecs/attribute-type';
import { checkAttributeName } from '../model/attribute-name';
import { decoratorOptions } from '../model/decorator-options';
import { addPendingAttribute } from '../model/pending-metadata';
import type { DeclaredExactly, ValueExactly } from './declared-exactly';
import type { FieldDecorator } from './decorator-types';
import { memberDecorator, refusedBareUse } from './member-decorator';

/** The options of `@Attr`: `type` or `codec`, one at most (docs/models.md). */
export interface AttrOptions {
  /**
   * The stored type. Inferred, when not given, from the declared TypeScript type where the compiler emits it
   * (`emitDecoratorMetadata`), else from the default value (`views = 0`); docs/models.md#attribute-types.
   */
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

/** The decorator `@Attr({ codec })` returns, for a codec of values `C`: on a property declared as a `C`. */
export interface CodecAttrDecorator<C> {
  /** Legacy form. */
  <P extends object, K extends string | symbol>(target: P, property: K & HoldsCodecValue<P, K, C>, descriptor?: undefined): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & ValueExactly<V, C, CodecMismatch>): void;
}

/** The values an attribute of type `T` holds: `@Attr({ type })` on a property declared otherwise does not compile. */
export type ValueOfType<T extends AttributeType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'date'
        ? Date
        : unknown;
/**
 * What `@Attr({ type })` asks for: a property declared (less null and undefined) with the type's values, a
 * string for 'string' (a union of string literals too), a number, a boolean or a Date; 'json' takes any. Where no
 * decorator metadata is emitted, the type is all `@Attr` knows, so a contradiction must not compile.
 */
export type TypeMismatch = {
  /** What the declaration should be: shown in the compiler's error. */
  mismatch: "a property declared with the type's values: string, number, boolean, Date (json takes any)";
};
/**
 * `unknown` when a declared type `V` (less null and undefined; `any` too) holds values of the stored type `T`
 * (a `T` the compiler cannot tell, `never`, is left to the run-time check).
 */
export type HoldsTypeValue<V, T extends AttributeType> = [T] extends [never]
  ? unknown
  : 0 extends 1 & V
    ? unknown
    : [NonNullable<V>] extends [ValueOfType<T>]
      ? unknown
      : TypeMismatch;

/** The decorator `@Attr({ type })` returns: on a property declared with the type's values. */
export interface TypedAttrDecorator<T extends AttributeType> {
  /** Legacy form; a property the key does not name (a private one) is left to the run-time check. */
  <P extends object, K extends string | symbol>(
    target: P,
    property: K & (K extends keyof P ? HoldsTypeValue<P[K], T> : unknown),
    descriptor?: undefined,
  ): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & HoldsTypeValue<V, T>): void;
}

/**
 * Marks a property as a persisted attribute; `@Model` resolves its type when the class is defined. Works with
 * legacy (`experimentalDecorators`) and standard decorators alike; without decorator metadata (standard
 * decorators, esbuild, swc without it), give the type: `@Attr({ type: 'string' })`.
 */
export function Attr<V>(options: AttrOptions & { codec: Codec<V> }): CodecAttrDecorator<V>;
export function Attr<T extends AttributeType>(options: AttrOptions & { type: T }): TypedAttrDecorator<T>;
export function Attr(options?: AttrOptions): FieldDecorator;
export function Attr(given?: AttrOptions): FieldDecorator {
  if (refusedBareUse('@Attr', arguments)) return undefined as never;
  return memberDecorator('@Attr', 'field', (target, property) => {
    checkAttributeName('@Attr', target, property);
    const options = decoratorOptions(`${target.constructor.name}.${property}`, '@Attr', given, ATTR_OPTIONS);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner: target.constructor.name, designType, options, declaredBy: '@Attr' });
  });
}

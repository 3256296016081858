/**
 * The types of redis-record's decorators, each callable in both forms: legacy (`experimentalDecorators`:
 * `(prototype, name, descriptor?)`, or `(class)`) and standard (TC39, TypeScript 5's default: `(value,
 * context)`). The compiler checks a decorator against the form its settings select; the checked decorators
 * (`@Counter`, `@Attr({ codec })`, the relations...) state their check once per form.
 */

/** A decorator that goes on a field (a property of the instances). */
export interface FieldDecorator {
  /** Legacy form: the prototype and the property's name (a method's descriptor does not compile). */
  (target: object, property: string | symbol, descriptor?: undefined): void;
  /** Standard form: no value, and the field's context. */
  (value: undefined, context: ClassFieldDecoratorContext): void;
}

/** `unknown` for a getter's value type `V`, a mismatch for a method's (a function). */
export type NotAMethod<V> = [V] extends [(...args: never[]) => unknown]
  ? {
      /** What the decorator goes on: shown in the compiler's error. */
      mismatch: 'a field, or a getter with @Computed()';
    }
  : unknown;

/** A decorator that goes on a field or on a getter (a computed value): what `@Index()` and `@Unique()` return. */
export interface FieldOrGetterDecorator extends FieldDecorator {
  /** Legacy form on a getter: its descriptor (a method's does not compile). */
  <V>(target: object, property: string | symbol, descriptor: TypedPropertyDescriptor<V> & NotAMethod<V>): void;
  /** Standard form on a getter. */
  (value: () => unknown, context: ClassGetterDecoratorContext): void;
}

/** A decorator that goes on a method: what `@BeforeSave()` and the other hooks return. */
export interface HookMethodDecorator {
  /** Legacy form: the prototype, the method's name and its descriptor. */
  (target: object, property: string | symbol, descriptor: PropertyDescriptor): void;
  /** Standard form: the method and its context. */
  (value: Function, context: ClassMethodDecoratorContext): void;
}

/**
 * A decorator that goes on a class: what `@Model()` returns. `K` is the attribute names its options give (the cap's
 * `by` and `per`): a name that is no property of the class's instances fails to compile.
 */
export interface ModelDecorator<K extends string = never> {
  /** Legacy form: the class. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor
  <C extends abstract new (...args: any[]) => object>(target: C & NamesProperties<InstanceType<C>, K>): void;
  /** Standard form: the class and its context. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor
  <C extends abstract new (...args: any[]) => object>(
    value: C & NamesProperties<InstanceType<C>, K>,
    context: ClassDecoratorContext<C>,
  ): void;
}

/**
 * `unknown` when every name of `K` is a property of the instances `I` (or `K` is any string: names not known at
 * compile time, which the decorator checks when it runs), else `{ unknownAttributes: ... }`.
 */
export type NamesProperties<I, K extends string> = string extends K
  ? unknown
  : [Exclude<K, keyof I>] extends [never]
    ? unknown
    : {
        /** The names that are no property of the class: shown in the compiler's error. */
        unknownAttributes: Exclude<K, keyof I>;
      };

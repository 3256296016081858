import './symbol-metadata';

/**
 * What a standard (TC39) decorator is given as its second argument: TypeScript 5 without
 * `experimentalDecorators`, esbuild, swc and Babel in that mode. Only what redis-record reads of it.
 */
export interface StandardContext {
  readonly kind: 'class' | 'method' | 'getter' | 'setter' | 'field' | 'accessor';
  readonly name: string | symbol | undefined;
  readonly static?: boolean;
  readonly private?: boolean;
  /** One object per decorated class, shared by its decorators; its prototype is the base class's (TS >= 5.2). */
  readonly metadata?: object;
}

/**
 * One call of a decorator, by the form it came in. Legacy (`experimentalDecorators`): `(prototype or class, key,
 * descriptor?)` on a member, `(class)` on a class, `(prototype or class, key, index)` on a parameter. Standard:
 * `(value, context)`, where `context.kind` says what the decorator is on.
 */
export type DecoratorCall =
  | {
      readonly form: 'legacy';
      /** The prototype, or the class for a static member or a class decorator. */
      readonly target: object;
      /** undefined for a class decorator (and a constructor parameter's). */
      readonly key: string | symbol | undefined;
      /** Given for a method, getter, setter or accessor; undefined for a field. */
      readonly descriptor: PropertyDescriptor | undefined;
      readonly parameter: boolean;
    }
  | { readonly form: 'standard'; readonly value: unknown; readonly context: StandardContext };

const KINDS: ReadonlySet<unknown> = new Set(['class', 'method', 'getter', 'setter', 'field', 'accessor']);

/** Whether `value` is a standard decorator's context: the second argument of every standard decorator call. */
export function isStandardContext(value: unknown): value is StandardContext {
  return typeof value === 'object' && value !== null && KINDS.has((value as { kind?: unknown }).kind) && 'name' in value;
}

/** The form of a decorator call, told by its arguments; undefined when they are no decorator call at all. */
export function decoratorCall(args: ArrayLike<unknown>): DecoratorCall | undefined {
  const [first, second, third] = [args[0], args[1], args[2]];
  if (args.length === 2 && isStandardContext(second)) return { form: 'standard', value: first, context: second };
  const target = typeof first === 'function' || (typeof first === 'object' && first !== null) ? first : undefined;
  if (!target) return undefined;
  if (args.length === 1 && typeof first === 'function') {
    return { form: 'legacy', target, key: undefined, descriptor: undefined, parameter: false }; // on a class
  }
  if (typeof third === 'number') {
    const key = typeof second === 'string' || typeof second === 'symbol' ? second : undefined;
    return { form: 'legacy', target, key, descriptor: undefined, parameter: true };
  }
  if (typeof second !== 'string' && typeof second !== 'symbol') return undefined;
  const descriptor = typeof third === 'object' && third !== null ? (third as PropertyDescriptor) : undefined;
  return { form: 'legacy', target, key: second, descriptor, parameter: false };
}

/**
 * Whether a member decorator's factory (`Attr`, `Index`, `BelongsTo`...) was applied bare (`@Attr` for `@Attr()`):
 * it is then given what the decorator would be, a standard context or a prototype and a key.
 */
export function isBareUse(args: ArrayLike<unknown>): boolean {
  const call = decoratorCall(args);
  if (call?.form === 'standard') return true;
  return call !== undefined && typeof call.target === 'object' && call.key !== undefined;
}

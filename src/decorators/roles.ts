import 'reflect-metadata';
import { SchemaError } from '../errors/errors';
import { checkAttributeName } from '../model/attribute-name';
import { addPendingAttribute, setPendingDynamic } from '../model/pending-metadata';
import { refuseDecoratorArguments } from '../model/decorator-options';
import { nameOf } from '../model/resolve-attribute';
import type { DeclaredExactly, ValueExactly } from './declared-exactly';
import { memberDecorator, refusedBareUse } from './member-decorator';

/**
 * What `@Counter()` and `@Version()` ask for: a property declared (less null and undefined) as a number. A
 * property declared otherwise makes the decorator's key argument fail to compile.
 */
export type NumberMismatch = {
  /** What the declaration should be: shown in the compiler's error. */
  mismatch: 'a property declared as a number';
};

/**
 * The decorator `@Counter()` and `@Version()` return: it applies to a property declared (less null and
 * undefined) as a number; another type makes the key argument fail to compile, with this message in the error.
 */
export interface NumberAttrDecorator {
  /** Legacy form. */
  <P extends object, K extends string | symbol>(
    target: P,
    property: K & DeclaredExactly<P, K, number, NumberMismatch>,
    descriptor?: undefined,
  ): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & ValueExactly<V, number, NumberMismatch>): void;
}

/** `given`: the arguments the decorator's factory was called with, refused when applied (it takes none). */
function roleDecorator(role: 'counter' | 'version', given: ArrayLike<unknown>): NumberAttrDecorator {
  const declaredBy = role === 'counter' ? '@Counter' : '@Version';
  if (refusedBareUse(declaredBy, given)) return undefined as never;
  return memberDecorator(declaredBy, 'field', (target, property) => {
    checkAttributeName(declaredBy, target, property);
    refuseDecoratorArguments(`${target.constructor.name}.${property}`, declaredBy, given);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner: target.constructor.name, designType, options: { type: 'number' }, role, declaredBy });
  });
}

/** A number changed atomically by `entity.increment(attr, by)`; save() writes it on create only. */
export function Counter(): NumberAttrDecorator {
  return roleDecorator('counter', arguments);
}

/** Optimistic locking: each save checks and bumps it in the same script; a stale save throws StaleObjectError. */
export function Version(): NumberAttrDecorator {
  return roleDecorator('version', arguments);
}

/** What TypeScript emits as a design type other than Object: `@DynamicAttrs` is refused on these at run time. */
type NotABag =
  | string
  | number
  | boolean
  | bigint
  | symbol
  | Function
  | Date
  | ReadonlyArray<unknown>
  | ReadonlyMap<unknown, unknown>
  | ReadonlySet<unknown>;
/**
 * What `@DynamicAttrs()` asks for: a property declared as an object, not an array, Date, Map, Set or function. A
 * property declared otherwise makes the decorator's key argument fail to compile.
 */
export type BagMismatch = {
  /** What the declaration should be: shown in the compiler's error. */
  mismatch: 'a property declared as an object (Record<string, string | number | boolean>)';
};

/**
 * `unknown` when property `K` of `P` is declared as an object that is not an array, a Date, a Map, a Set or a
 * function (`any` included), else `BagMismatch`.
 */
export type DeclaredAsBag<P, K> = K extends keyof P ? ValueIsBag<P[K]> : BagMismatch;
/** `unknown` when a declared type `V` is an object that is not an array, a Date, a Map, a Set or a function (`any` too), else `BagMismatch`. */
export type ValueIsBag<V> = 0 extends 1 & V ? unknown : [NonNullable<V>] extends [NotABag] ? BagMismatch : unknown;

/** The decorator `@DynamicAttrs()` returns: a property declared otherwise makes the key argument fail to compile. */
export interface DynamicAttrsDecorator {
  /** Legacy form. */
  <P extends object, K extends string | symbol>(target: P, property: K & DeclaredAsBag<P, K>, descriptor?: undefined): void;
  /** Standard form: `V` is the field's declared type. */
  <This, V>(value: undefined, context: ClassFieldDecoratorContext<This, V> & ValueIsBag<V>): void;
}

/**
 * Per-object attributes not declared on the class (`Record<string, string | number | boolean>`): each key is its
 * own hash field `~<key>`, so saves write only the keys that changed.
 */
export function DynamicAttrs(): DynamicAttrsDecorator {
  const given = arguments;
  if (refusedBareUse('@DynamicAttrs', given)) return undefined as never;
  return memberDecorator('@DynamicAttrs', 'field', (target, property) => {
    checkAttributeName('@DynamicAttrs', target, property);
    refuseDecoratorArguments(`${target.constructor.name}.${property}`, '@DynamicAttrs', given);
    // every load puts an object in the property: declared as a string, a number, an array... it would not hold one
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    if (designType !== undefined && designType !== Object) {
      throw new SchemaError(
        `${target.constructor.name}.${property}: @DynamicAttrs goes on a property declared as an object (Record<string, string | number | boolean>), not ${nameOf(designType)}`,
      );
    }
    setPendingDynamic(target, property);
  });
}

import { hookDecorator, HookKind } from '../model/hook-kind';
import { addPendingHook } from '../model/pending-metadata';
import { SchemaError } from '../errors/errors';
import { refuseDecoratorArguments } from '../model/decorator-options';
import { decoratorCall } from '../model/decorator-call';
import type { HookMethodDecorator } from './decorator-types';
import { memberDecorator } from './member-decorator';

/** Usable bare (`@BeforeSave`) or called (`@BeforeSave()`), with legacy or standard decorators. */
export interface HookDecorator extends HookMethodDecorator {
  (): HookMethodDecorator;
}

/**
 * Used bare, the decorator is called as a decorator: with the class's prototype (or the class, for a static
 * method) and the method's name, or with the method and its standard context; called first (`@BeforeSave()`),
 * with nothing. Anything else was given to the call as options, which a hook does not take: SchemaError when the
 * decorator it returns is applied, naming the method.
 */
function hook(kind: HookKind): HookDecorator {
  const decorate = (target: object, propertyKey: string | symbol, given: ArrayLike<unknown>): void => {
    const isStatic = typeof target === 'function';
    const owner = isStatic ? target.name : target.constructor.name;
    if (isStatic || typeof propertyKey !== 'string') {
      const refused = isStatic ? 'goes on instance methods, not static ones' : 'goes on methods named by strings, not symbols';
      throw new SchemaError(`${owner}.${String(propertyKey)}: ${hookDecorator(kind)} ${refused}`);
    }
    refuseDecoratorArguments(`${owner}.${propertyKey}`, hookDecorator(kind), given);
    addPendingHook(target, kind, propertyKey);
  };
  const decorator = (given: ArrayLike<unknown>) =>
    memberDecorator(hookDecorator(kind), 'method', (target, key) => decorate(target, key, given));
  return ((...args: unknown[]) => {
    const call = decoratorCall(args);
    const bare = call !== undefined && (call.form === 'standard' || call.key !== undefined);
    if (!bare) return decorator(args);
    decorator([])(...args);
    return undefined;
  }) as HookDecorator;
}

/** Marks a method run before class-validator runs (docs/validation-and-hooks.md#order). */
export const BeforeValidate = hook('beforeValidate');
/** Marks a method run after validation, before every write of a save (docs/validation-and-hooks.md#order). */
export const BeforeSave = hook('beforeSave');
/** Marks a method run after `@BeforeSave`, before a new object's write (docs/validation-and-hooks.md#order). */
export const BeforeCreate = hook('beforeCreate');
/** Marks a method run after `@BeforeSave`, before a persisted object's write (docs/validation-and-hooks.md#order). */
export const BeforeUpdate = hook('beforeUpdate');
/** Marks a method run once a new object is written (docs/validation-and-hooks.md#order). */
export const AfterCreate = hook('afterCreate');
/** Marks a method run once a persisted object is written (docs/validation-and-hooks.md#order). */
export const AfterUpdate = hook('afterUpdate');
/** Marks a method run after `@AfterCreate` or `@AfterUpdate` (docs/validation-and-hooks.md#order). */
export const AfterSave = hook('afterSave');
/** Marks a method run before the delete of `remove()` (docs/validation-and-hooks.md#order). */
export const BeforeRemove = hook('beforeRemove');
/** Marks a method run once `remove()` has deleted the object (docs/validation-and-hooks.md#order). */
export const AfterRemove = hook('afterRemove');
/** Marks a method run once a load (find, findMany, reload, a query) has set the attributes (docs/validation-and-hooks.md#order). */
export const AfterLoad = hook('afterLoad');

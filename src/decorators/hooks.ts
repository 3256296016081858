import { hookDecorator, HookKind } from '../metadata/hook-kind';
import { addPendingHook } from '../metadata/pending-metadata';
import { SchemaError } from '../errors/errors';

/** Usable bare (`@BeforeSave`) or called (`@BeforeSave()`). */
export interface HookDecorator {
  (): MethodDecorator;
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
}

function hook(kind: HookKind): HookDecorator {
  const decorate = (target: object, propertyKey: string | symbol): void => {
    if (typeof target === 'function' || typeof propertyKey !== 'string') {
      const isStatic = typeof target === 'function';
      const owner = isStatic ? target.name : target.constructor.name;
      const refused = isStatic ? 'goes on instance methods, not static ones' : 'goes on methods named by strings, not symbols';
      throw new SchemaError(`${owner}.${String(propertyKey)}: ${hookDecorator(kind)} ${refused}`);
    }
    addPendingHook(target, kind, propertyKey);
  };
  return ((...args: unknown[]) => {
    if (args.length === 0) return decorate;
    decorate(args[0] as object, args[1] as string | symbol);
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

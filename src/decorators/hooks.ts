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

export const BeforeValidate = hook('beforeValidate');
export const BeforeSave = hook('beforeSave');
export const BeforeCreate = hook('beforeCreate');
export const BeforeUpdate = hook('beforeUpdate');
export const AfterCreate = hook('afterCreate');
export const AfterUpdate = hook('afterUpdate');
export const AfterSave = hook('afterSave');
export const BeforeRemove = hook('beforeRemove');
export const AfterRemove = hook('afterRemove');
export const AfterLoad = hook('afterLoad');

import 'reflect-metadata';
import { SchemaError } from '../errors/errors';
import { addPendingAttribute, setPendingDynamic } from '../metadata/pending-metadata';

function roleDecorator(role: 'counter' | 'version'): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    const name = role === 'counter' ? 'Counter' : 'Version';
    if (typeof target === 'function' || typeof property !== 'string') {
      throw new SchemaError(`${String(property)}: @${name} goes on instance attributes`);
    }
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner: target.constructor.name, designType, options: { type: 'number' }, role });
  };
}

/** A number changed atomically by `entity.increment(attr, by)`; save() writes it on create only. */
export function Counter(): PropertyDecorator {
  return roleDecorator('counter');
}

/** Optimistic locking: each save checks and bumps it in the same script; a stale save throws StaleObjectError. */
export function Version(): PropertyDecorator {
  return roleDecorator('version');
}

/**
 * Per-object attributes not declared on the class (`Record<string, string | number | boolean>`): each key is its
 * own hash field `~<key>`, so saves write only the keys that changed.
 */
export function DynamicAttrs(): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    if (typeof target === 'function' || typeof property !== 'string') {
      throw new SchemaError(`${String(property)}: @DynamicAttrs goes on an instance property`);
    }
    setPendingDynamic(target, property);
  };
}

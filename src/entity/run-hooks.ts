import { describeValue } from '../util/describe-value';
import { SchemaError } from '../errors/errors';
import { HookKind, hookDecorator } from '../model/hook-kind';
import { ModelDescriptor } from '../model/model-descriptor';

/**
 * Calls the entity's hook methods of one kind, base class first, awaiting each (they may be sync or async).
 * Without hooks of that kind it does nothing and returns nothing (no promise on the hot path). @Model made sure
 * each is a method of the class; an instance whose own property hides one fails here with a SchemaError.
 */
export function runHooks(model: ModelDescriptor, entity: object, kind: HookKind): Promise<void> | undefined {
  const methods = model.hookMethods(kind);
  if (methods.length === 0) return undefined;
  return (async () => {
    for (const method of methods) {
      const call: unknown = (entity as Record<string, unknown>)[method];
      if (typeof call !== 'function') {
        throw new SchemaError(
          `${model.name}.${method}: ${hookDecorator(kind)} goes on a method, and this instance's ${method} is ${describeValue(call)}`,
        );
      }
      await call.call(entity);
    }
  })();
}

const SAVE_HOOKS: readonly HookKind[] = [
  'beforeValidate',
  'beforeSave',
  'beforeCreate',
  'beforeUpdate',
  'afterCreate',
  'afterUpdate',
  'afterSave',
];
const REMOVE_HOOKS: readonly HookKind[] = ['beforeRemove', 'afterRemove'];
const answers = new WeakMap<ModelDescriptor, Map<readonly HookKind[], boolean>>();

/** Whether the model has a hook of any of these kinds (computed once per model and list). */
function hasHooks(model: ModelDescriptor, kinds: readonly HookKind[]): boolean {
  let known = answers.get(model);
  if (!known) answers.set(model, (known = new Map()));
  let has = known.get(kinds);
  if (has === undefined) {
    has = kinds.some((kind) => model.hookMethods(kind).length > 0);
    known.set(kinds, has);
  }
  return has;
}

/** Whether save() has any hook to run for this model: without, it skips them all. */
export function hasSaveHooks(model: ModelDescriptor): boolean {
  return hasHooks(model, SAVE_HOOKS);
}

/** Whether remove() has any hook to run for this model: without, it skips them all. */
export function hasRemoveHooks(model: ModelDescriptor): boolean {
  return hasHooks(model, REMOVE_HOOKS);
}

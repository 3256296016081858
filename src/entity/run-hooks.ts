import { HookKind } from '../metadata/hook-kind';
import { ModelDescriptor } from '../metadata/model-descriptor';

/**
 * Calls the entity's hook methods of one kind, base class first, awaiting each (they may be sync or async).
 * Without hooks of that kind it does nothing and returns nothing (no promise on the hot path).
 */
export function runHooks(model: ModelDescriptor, entity: object, kind: HookKind): Promise<void> | undefined {
  const methods = model.hookMethods(kind);
  if (methods.length === 0) return undefined;
  return (async () => {
    for (const method of methods) await (entity as Record<string, () => unknown>)[method]();
  })();
}

const SAVE_HOOKS: readonly HookKind[] = ['beforeValidate', 'beforeSave', 'beforeCreate', 'beforeUpdate', 'afterCreate', 'afterUpdate', 'afterSave'];
const savesWithHooks = new WeakMap<ModelDescriptor, boolean>();

/** Whether save() has any hook to run for this model (computed once per model): without, it skips them all. */
export function hasSaveHooks(model: ModelDescriptor): boolean {
  let has = savesWithHooks.get(model);
  if (has === undefined) {
    has = SAVE_HOOKS.some((kind) => model.hookMethods(kind).length > 0);
    savesWithHooks.set(model, has);
  }
  return has;
}

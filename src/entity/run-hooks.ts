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

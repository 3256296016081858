import { HookKind } from '../metadata/hook-kind';
import { ModelDescriptor } from '../metadata/model-descriptor';

/** Calls the entity's hook methods of one kind, base class first, awaiting each (they may be sync or async). */
export async function runHooks(model: ModelDescriptor, entity: object, kind: HookKind): Promise<void> {
  for (const method of model.hookMethods(kind)) {
    await (entity as Record<string, () => unknown>)[method]();
  }
}

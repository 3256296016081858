import { ModelDescriptor } from './model-descriptor';
import { describeValue } from '../util/describe-value';
import { ArgumentError, SchemaError } from '../errors/errors';

const byClass = new WeakMap<Function, ModelDescriptor>();
const byName = new Map<string, ModelDescriptor>();

export function registerModel(descriptor: ModelDescriptor): void {
  const existing = byName.get(descriptor.name);
  if (existing && existing.ctor !== descriptor.ctor) {
    throw new SchemaError(
      `${descriptor.ctor.name}: a model named ${descriptor.name} is already defined (by class ${existing.ctor.name}); pick another with @Model({ name })`,
    );
  }
  // An ungrouped model's keys are under {Name}, a grouped one's under {group}:Name: a group named like an
  // ungrouped model would share its hash tag and key patterns (drop, check and the tools would take one model's
  // keys for the other's).
  for (const other of byName.values()) {
    if (other.ctor === descriptor.ctor) continue;
    const clash =
      (descriptor.group !== undefined && other.group === undefined && other.name === descriptor.group) ||
      (descriptor.group === undefined && other.group !== undefined && other.group === descriptor.name);
    if (clash) {
      const [grouped, named] = descriptor.group !== undefined ? [descriptor, other] : [other, descriptor];
      throw new SchemaError(
        `${descriptor.ctor.name}: model ${named.name} has no group and group ${grouped.group} (of model ${grouped.name}) has its name: their keys would overlap; rename one`,
      );
    }
  }
  byName.set(descriptor.name, descriptor);
  byClass.set(descriptor.ctor, descriptor);
}

/** A tenant scope's class (a subclass made by Model.scope) with its descriptor; not registered by name. */
export function registerScope(descriptor: ModelDescriptor): void {
  byClass.set(descriptor.ctor, descriptor);
}

/** How many models are defined: grows when a class is decorated, so caches derived from all models use it. */
export function modelCount(): number {
  return byName.size;
}

/** Every model defined with @Model (not the tenant scopes). */
export function allModels(): ModelDescriptor[] {
  return [...byName.values()];
}

/** The descriptor of a class decorated with @Model; a class without one is a definition error. */
export function descriptorOf(ctor: Function): ModelDescriptor {
  if (typeof ctor !== 'function') {
    // a static method called without its class: `const find = Post.find; find(id)`
    throw new ArgumentError(
      `expected a model class, got ${describeValue(ctor)}: call the method on the class (Post.find(...)), or bind it`,
    );
  }
  const descriptor = byClass.get(ctor);
  if (!descriptor) throw new SchemaError(`${ctor.name} is not a model: decorate it with @Model()`);
  return descriptor;
}

/** Whether `ctor` itself is a model already (its @Model has run). */
export function hasDescriptor(ctor: Function): boolean {
  return byClass.has(ctor);
}

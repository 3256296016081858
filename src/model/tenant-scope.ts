import { ArgumentError } from '../errors/errors';
import { isValidTenant, TENANT_RULE } from '../keys/tenant-name';
import { ModelDescriptor } from './model-descriptor';
import { descriptorOf, registerScope } from './model-registry';

const scopes = new WeakMap<Function, Map<string, Function>>();

/**
 * The model class within a tenant: a subclass of it (instances are still `instanceof` the model) whose
 * descriptor puts every key under `{<tenant>/...}`. Made once per model and tenant.
 */
export function scopedClass<C extends Function>(ctor: C, tenant: string): C {
  if (!isValidTenant(tenant)) {
    throw new ArgumentError(`invalid tenant ${JSON.stringify(tenant)}: ${TENANT_RULE}`);
  }
  const model = descriptorOf(ctor);
  const root = model.tenant === undefined ? ctor : (Object.getPrototypeOf(ctor) as C);
  let byTenant = scopes.get(root);
  if (!byTenant) {
    byTenant = new Map();
    scopes.set(root, byTenant);
  }
  let scoped = byTenant.get(tenant);
  if (!scoped) {
    const Base = root as unknown as new () => object;
    scoped = class extends Base {};
    Object.defineProperty(scoped, 'name', { value: root.name });
    registerScope(descriptorOf(root).forTenant(scoped, tenant));
    byTenant.set(tenant, scoped);
  }
  return scoped as C;
}

/** The descriptor of `target` in the same tenant as `model` (the target itself outside tenants). */
export function inSameTenant(model: ModelDescriptor, target: Function): ModelDescriptor {
  return descriptorOf(model.tenant === undefined ? target : scopedClass(target, model.tenant));
}

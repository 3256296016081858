import { wholeMilliseconds } from '../util/whole-milliseconds';
import { describeValue } from '../util/describe-value';
import { SchemaError } from '../errors/errors';
import { Cap, CapOptions, ModelDescriptor, ModelOptions } from '../model/model-descriptor';
import { decoratorOptions } from '../model/decorator-options';
import { registerModel } from '../model/model-registry';
import { collectAttributes, collectDynamic, collectHooks, collectIndexes, collectRelations } from '../model/pending-metadata';
import { HookKind, hookDecorator } from '../model/hook-kind';
import { resolveAttribute } from '../model/resolve-attribute';
import { resolveIndex } from '../model/resolve-index';
import { IndexDescriptor } from '../model/index-descriptor';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { MAX_SHARDS } from '../keys/shard-tags';
import { modelReplicaPolicy } from '../model/replica-policy';
import { isValidModelName } from '../model/model-name';
import { decoratorCall } from '../model/decorator-call';
import { runDeclarations } from '../model/deferred-declarations';
import type { ModelDecorator } from './decorator-types';
import { idempotencyTtlMs } from '../model/idempotency';

/** The names `@Model` takes, and `cap` (any other is a SchemaError: a misspelt one would be ignored). */
const MODEL_OPTIONS = [
  'name',
  'idStrategy',
  'ttl',
  'expirable',
  'cap',
  'group',
  'shards',
  'waitReplicas',
  'waitTimeoutMs',
  'idempotencyTtl',
] as const satisfies ReadonlyArray<keyof ModelOptions>;
const CAP_OPTIONS = ['by', 'keep', 'order', 'per'] as const satisfies ReadonlyArray<keyof CapOptions>;

/**
 * Declares an entity class as a model; its `@Attr` properties (and its base classes') are what gets stored. With
 * legacy decorators (`experimentalDecorators`) or standard ones alike: in the standard form, the member decorators
 * left their work in the class's `context.metadata`, which runs here (deferred-declarations.ts).
 */
export function Model<const K extends string = never>(given?: ModelOptions<K>): ModelDecorator<K> {
  if (typeof given === 'function') {
    throw new SchemaError(`${(given as Function).name}: write @Model() with parentheses (@Model makes the decorator)`);
  }
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new SchemaError(`@Model takes an options object, got ${describeValue(given)}`);
  }
  const options: ModelOptions = given ?? {};
  return (...args: unknown[]) => {
    const call = decoratorCall(args);
    if (call?.form === 'standard' && call.context.kind === 'class' && typeof call.value === 'function') {
      runDeclarations(call.value, call.context.metadata);
      return defineModel(call.value, options);
    }
    if (call?.form === 'legacy' && call.key === undefined && !call.parameter && typeof call.target === 'function') {
      runDeclarations(call.target, undefined);
      return defineModel(call.target, options);
    }
    if (call?.form === 'legacy') {
      const owner = typeof call.target === 'function' ? call.target.name : call.target.constructor.name;
      throw new SchemaError(`${owner}.${String(call.key)}: @Model goes on a class, not on a member or a parameter`);
    }
    const where = call ? String(call.context.name) : describeValue(args[0]);
    throw new SchemaError(`${where}: @Model goes on a class${call ? `, not on a ${call.context.kind}` : ''}`);
  };
}

/** What `@Model` does with its class, in either form: checks the options and the members, and registers the model. */
function defineModel(target: Function, options: ModelOptions): void {
  decoratorOptions(target.name, '@Model', options, MODEL_OPTIONS);
  // only undefined means "not given": a null name or group is a mistake, not a request for the default
  const name = options.name === undefined ? target.name : options.name;
  if (!isValidModelName(name)) {
    throw new SchemaError(`${target.name}: model name ${describeValue(name)} must be 1 to 64 letters, digits or _`);
  }
  const idStrategy = options.idStrategy === undefined ? 'sequence' : options.idStrategy;
  if (idStrategy !== 'sequence' && idStrategy !== 'uuid' && idStrategy !== 'given') {
    throw new SchemaError(`${target.name}: idStrategy must be 'sequence', 'uuid' or 'given'`);
  }
  const ttl = options.ttl;
  const ttlMs = wholeMilliseconds(ttl);
  if (ttl !== undefined && (ttlMs === undefined || ttlMs < 1 || ttl > 100_000 * 365 * 86_400)) {
    throw new SchemaError(`${target.name}: ttl must be a positive number of seconds (millisecond precision, at most 100,000 years)`);
  }
  const expirable = options.expirable;
  if (expirable !== undefined && typeof expirable !== 'boolean') {
    throw new SchemaError(`${target.name}: expirable must be true or false`);
  }
  if (expirable === false && ttl !== undefined) {
    throw new SchemaError(`${target.name}: a model with a ttl is expirable; drop expirable: false`);
  }
  let sample: Record<string, unknown> | undefined;
  const defaults = () => (sample ??= new (target as unknown as new () => Record<string, unknown>)());
  const attributes = collectAttributes(target).map((pending) => resolveAttribute(pending, () => defaults()[pending.property]));
  const byName = new Map(attributes.map((a) => [a.property, a]));
  const indexes: IndexDescriptor[] = [];
  for (const pending of collectIndexes(target)) {
    const index = resolveIndex(pending, (property) => byName.get(property));
    // a composite unique is one index whatever the order of its parts; a compound index's order is its meaning
    const same = indexes.find((other) =>
      index.parts
        ? other.kind === index.kind &&
          other.parts?.length === index.parts.length &&
          index.parts.every((part, i) => (index.kind === 'compound' ? other.parts![i] === part : other.parts!.includes(part)))
        : other.kind === index.kind &&
          other.attribute === index.attribute &&
          other.scope === index.scope &&
          other.caseInsensitive === index.caseInsensitive,
    );
    if (!same) indexes.push(index); // the same index declared twice (e.g. by @BelongsTo and by hand) is one index
  }
  if (attributes.filter((a) => a.role === 'version').length > 1) throw new SchemaError(`${target.name}: only one @Version attribute`);
  const dynamic = collectDynamic(target);
  if (dynamic.length > 1) throw new SchemaError(`${target.name}: only one @DynamicAttrs property`);
  if (dynamic[0] && byName.has(dynamic[0])) throw new SchemaError(`${target.name}.${dynamic[0]}: @DynamicAttrs cannot also be an @Attr`);
  for (const index of indexes) {
    if (index.kind === 'unique' && !index.parts && index.attribute.role) {
      throw new SchemaError(`${target.name}.${index.attribute.property}: a counter or version cannot be @Unique`);
    }
    const scope = index.scope;
    if (scope && indexes.some((other) => other.kind === 'unique' && other.caseInsensitive && other.attribute === scope)) {
      // equality on such an attribute ignores case, but a scope picks its index key by the exact value
      throw new SchemaError(
        `${target.name}.${index.attribute.property}: scope ${scope.property} has a case-insensitive @Unique, and a scope is matched exactly; scope by another attribute`,
      );
    }
  }
  const group = options.group;
  if (group !== undefined && !isValidModelName(group)) {
    throw new SchemaError(`${target.name}: group ${describeValue(group)} must be 1 to 64 letters, digits or _`);
  }
  refuseMethodNames(target, [...attributes.map((a) => a.property), ...dynamic]);
  const hooks = collectHooks(target);
  refuseHooksOnNonMethods(target, hooks);
  const relations = collectRelations(target);
  for (const relation of relations) {
    if (byName.has(relation.property) || relation.property === dynamic[0]) {
      throw new SchemaError(`${target.name}.${relation.property}: a relation cannot also be an attribute`);
    }
  }
  registerModel(
    new ModelDescriptor({
      name,
      ctor: target,
      idStrategy,
      ttlMs,
      expirable,
      attributes,
      indexes,
      hooks,
      dynamicProperty: dynamic[0],
      cap: resolveCap(target.name, options, indexes, (property) => byName.get(property)),
      group,
      relations,
      shards: resolveShards(target.name, options, relations.length > 0),
      replicas: modelReplicaPolicy(target.name, options),
      idempotencyTtlMs: idempotencyTtlMs(options.idempotencyTtl, (message) => new SchemaError(`${target.name}: ${message}`)),
    }),
  );
}

function resolveCap(
  owner: string,
  options: ModelOptions,
  indexes: IndexDescriptor[],
  attributeOf: (property: string) => AttributeDescriptor | undefined,
): Cap | undefined {
  const cap = options.cap;
  if (cap === undefined) return undefined;
  if (typeof cap !== 'object' || cap === null || Array.isArray(cap)) {
    throw new SchemaError(`${owner}: cap takes { by, keep, order?, per? }, got ${describeValue(cap)}`);
  }
  decoratorOptions(owner, 'cap', cap, CAP_OPTIONS);
  if (!Number.isSafeInteger(cap.keep) || cap.keep < 1) throw new SchemaError(`${owner}: cap.keep must be a whole number >= 1`);
  if (cap.order !== undefined && cap.order !== 'desc' && cap.order !== 'asc') {
    throw new SchemaError(`${owner}: cap.order must be 'desc' (keep the highest) or 'asc' (keep the lowest)`);
  }
  if (cap.per === undefined) {
    const index = indexes.find((i) => i.kind === 'score' && !i.scope && i.attribute.property === cap.by);
    if (!index) throw new SchemaError(`${owner}: cap by ${cap.by} needs a number or Date attribute ${cap.by} with @Index()`);
    return { index, keep: cap.keep, keepLowest: cap.order === 'asc' };
  }
  const per = capPer(owner, cap.per, cap.by, attributeOf);
  const index = indexes.find((i) => i.kind === 'score' && i.scope === per && i.attribute.property === cap.by);
  if (!index) {
    throw new SchemaError(
      `${owner}: cap by ${describeValue(cap.by)} per ${per.property} needs a number or Date attribute ${describeValue(cap.by)} with @Index({ scope: '${per.property}' }) (one sorted index per ${per.property})`,
    );
  }
  return { index, keep: cap.keep, keepLowest: cap.order === 'asc', per };
}

/** The attribute of `cap.per`: one of the model that groups objects by a plain value (no json, counter or version). */
function capPer(
  owner: string,
  per: unknown,
  by: unknown,
  attributeOf: (property: string) => AttributeDescriptor | undefined,
): AttributeDescriptor {
  if (typeof per !== 'string') throw new SchemaError(`${owner}: cap.per must name an attribute, got ${describeValue(per)}`);
  const attribute = attributeOf(per);
  if (!attribute)
    throw new SchemaError(`${owner}: cap.per ${describeValue(per)} is not an attribute of the model (declare it with @Attr())`);
  if (per === by) throw new SchemaError(`${owner}: cap.per cannot be cap.by (${per}): each object would be a group of its own`);
  if (attribute.type === 'json')
    throw new SchemaError(`${owner}: cap.per ${per} is a json attribute; groups are values of a plain attribute`);
  if (attribute.role) {
    throw new SchemaError(
      `${owner}: cap.per ${per} is a ${attribute.role}; groups are values of a plain attribute, which increments would move`,
    );
  }
  return attribute;
}

/**
 * Refuses attributes named like a method of the entity (save, reload, toJSON, or one of the class's own):
 * the stored value would replace the method on every instance, and calls to it would fail far from the cause.
 */
function refuseMethodNames(target: Function, properties: readonly string[]): void {
  for (const property of properties) {
    for (let proto = target.prototype as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      const own = Object.getOwnPropertyDescriptor(proto, property);
      if (own && typeof own.value === 'function') {
        throw new SchemaError(`${target.name}.${property}: an attribute cannot take the name of a method of the entity`);
      }
    }
  }
}

/**
 * Refuses a lifecycle hook on anything but a method of the class: a field (an attribute, or a property holding
 * a function) or a getter would otherwise fail only when the hook first runs.
 */
function refuseHooksOnNonMethods(target: Function, hooks: ReadonlyMap<HookKind, readonly string[]>): void {
  for (const [kind, methods] of hooks) {
    for (const method of methods) {
      let member: PropertyDescriptor | undefined;
      for (
        let proto = target.prototype as object | null;
        !member && proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto)
      ) {
        member = Object.getOwnPropertyDescriptor(proto, method);
      }
      if (typeof member?.value !== 'function') {
        const what = member?.get || member?.set ? 'a getter or setter' : 'a field';
        throw new SchemaError(`${target.name}.${method}: ${hookDecorator(kind)} goes on a method, and ${method} is ${what}`);
      }
    }
  }
}

function resolveShards(owner: string, options: ModelOptions, related: boolean): number {
  const shards = options.shards;
  if (shards === undefined || shards === 1) return 1;
  if (!Number.isSafeInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new SchemaError(`${owner}: shards must be a whole number from 1 to ${MAX_SHARDS}`);
  }
  // What these need is atomic across objects, and objects of different shards are in different slots.
  if (options.group !== undefined) throw new SchemaError(`${owner}: a sharded model cannot be in a group`);
  if (options.cap !== undefined) {
    // a cap per value too: the objects of one value are spread over the shards by id, and a trim is one script
    const what =
      (options.cap as { per?: unknown } | null)?.per === undefined
        ? 'the cap is one ranking of all objects'
        : 'the objects of one value of cap.per are spread over the shards, and a trim runs in one';
    throw new SchemaError(`${owner}: a sharded model cannot be capped (${what})`);
  }
  if (related) throw new SchemaError(`${owner}: a sharded model cannot have relations`);
  return shards;
}

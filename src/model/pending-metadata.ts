import 'reflect-metadata';
import { SchemaError } from '../errors/errors';
import { HookKind } from './hook-kind';
import { RelationDescriptor } from './relation-descriptor';

/**
 * Property and method decorators run before the class decorator; they leave what they saw here, on the
 * prototype they decorate, and `@Model` gathers it along the prototype chain (so base classes share theirs).
 */
export interface PendingAttribute {
  readonly property: string;
  /** The class that declares it, for error messages. */
  readonly owner: string;
  /** What TypeScript emitted as `design:type` (Object for an un-annotated initializer such as `views = 0`). */
  readonly designType: unknown;
  readonly options: { readonly type?: unknown; readonly codec?: unknown };
  readonly role?: 'counter' | 'version';
  /** The decorator that declared it (`@Attr`, `@Counter`, `@Version`, `@BelongsTo <relation>`), for error messages. */
  readonly declaredBy: string;
  /** `@Computed()` on a getter: a read-only value the getter gives at each write. */
  readonly computed?: true;
}

export interface PendingIndex {
  readonly property: string;
  readonly owner: string;
  readonly kind: 'index' | 'unique';
  readonly options: { readonly sortable?: unknown; readonly scope?: unknown; readonly caseInsensitive?: unknown; readonly each?: unknown };
  /**
   * Declared on the class: a composite unique (`@Unique(['userId', 'channelId'])`) or a compound index
   * (`@Index(['score', 'createdAt'])`), its attributes in order; `property` is their names joined by `+`.
   */
  readonly parts?: readonly string[];
}

const ATTRIBUTES = Symbol('redis-record:attributes');
const INDEXES = Symbol('redis-record:indexes');
const DYNAMIC = Symbol('redis-record:dynamic');
const RELATIONS = Symbol('redis-record:relations');
const HOOKS = Symbol('redis-record:hooks');

/**
 * One declaration per property and class: a second one (`@Attr() @Counter() visits`, or `@Attr()` on a
 * @BelongsTo's foreign key) is a SchemaError whichever comes first, rather than the last one silently winning.
 */
export function addPendingAttribute(prototype: object, attribute: PendingAttribute): void {
  const own: PendingAttribute[] = Reflect.getOwnMetadata(ATTRIBUTES, prototype) ?? [];
  const other = own.find((a) => a.property === attribute.property);
  if (other) {
    throw new SchemaError(
      `${attribute.owner}.${attribute.property}: declared by both ${other.declaredBy} and ${attribute.declaredBy}; a property takes one of @Attr, @Counter and @Version`,
    );
  }
  Reflect.defineMetadata(ATTRIBUTES, [...own, attribute], prototype);
}

export function addPendingIndex(prototype: object, index: PendingIndex): void {
  const own: PendingIndex[] = Reflect.getOwnMetadata(INDEXES, prototype) ?? [];
  Reflect.defineMetadata(INDEXES, [...own, index], prototype);
}

export function addPendingHook(prototype: object, kind: HookKind, method: string): void {
  const own: Array<[HookKind, string]> = Reflect.getOwnMetadata(HOOKS, prototype) ?? [];
  Reflect.defineMetadata(HOOKS, [...own, [kind, method]], prototype);
}

/** Prototypes from the furthest base down to `ctor.prototype`. */
function chain(ctor: Function): object[] {
  const protos: object[] = [];
  for (let p = ctor.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) protos.unshift(p);
  return protos;
}

/** Attributes of the class and its bases; a subclass redeclaring a property replaces the base's. */
export function collectAttributes(ctor: Function): PendingAttribute[] {
  const byProperty = new Map<string, PendingAttribute>();
  for (const proto of chain(ctor)) {
    for (const attribute of (Reflect.getOwnMetadata(ATTRIBUTES, proto) ?? []) as PendingAttribute[]) {
      byProperty.delete(attribute.property);
      byProperty.set(attribute.property, attribute);
    }
  }
  return [...byProperty.values()];
}

/** Hook method names per kind, base classes first; a method name appears once even if overridden. */
export function collectHooks(ctor: Function): Map<HookKind, string[]> {
  const hooks = new Map<HookKind, string[]>();
  for (const proto of chain(ctor)) {
    for (const [kind, method] of (Reflect.getOwnMetadata(HOOKS, proto) ?? []) as Array<[HookKind, string]>) {
      const list = hooks.get(kind) ?? [];
      if (!list.includes(method)) list.push(method);
      hooks.set(kind, list);
    }
  }
  return hooks;
}

/** Index declarations of the class and its bases, in declaration order. */
export function collectIndexes(ctor: Function): PendingIndex[] {
  return chain(ctor).flatMap((proto) => (Reflect.getOwnMetadata(INDEXES, proto) ?? []) as PendingIndex[]);
}

export function setPendingDynamic(prototype: object, property: string): void {
  const own: string[] = Reflect.getOwnMetadata(DYNAMIC, prototype) ?? [];
  Reflect.defineMetadata(DYNAMIC, [...own, property], prototype);
}

/** Properties decorated with @DynamicAttrs along the prototype chain. */
export function collectDynamic(ctor: Function): string[] {
  return [...new Set(chain(ctor).flatMap((proto) => (Reflect.getOwnMetadata(DYNAMIC, proto) ?? []) as string[]))];
}

export function addPendingRelation(prototype: object, relation: RelationDescriptor): void {
  const own: RelationDescriptor[] = Reflect.getOwnMetadata(RELATIONS, prototype) ?? [];
  Reflect.defineMetadata(RELATIONS, [...own, relation], prototype);
}

/** Relations declared on the class and its bases. */
export function collectRelations(ctor: Function): RelationDescriptor[] {
  return chain(ctor).flatMap((proto) => (Reflect.getOwnMetadata(RELATIONS, proto) ?? []) as RelationDescriptor[]);
}

import { SchemaError } from '../errors/errors';
import { decoratorCall, DecoratorCall, isBareUse, StandardContext } from '../model/decorator-call';
import { deferDeclaration, noMetadataError } from '../model/deferred-declarations';

/**
 * What a member decorator does once it knows its member, in the legacy form's terms: `target` is the prototype
 * (the class for a static member), `key` the member's name, `descriptor` given for a method.
 */
export type ApplyMember = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => void;

/**
 * What a member decorator goes on: a field, a method, a getter (`@Computed`), or a field or getter (`@Index` and
 * `@Unique`, which index attributes and computed values alike).
 */
export type MemberKind = 'field' | 'method' | 'getter' | 'field or getter';

/**
 * A decorator that works in both forms, legacy (`experimentalDecorators`) and standard (TC39): `apply` runs at
 * once in the legacy form, and in the standard form when `@Model` runs the class's declarations (deferred-declarations.ts),
 * with the same arguments. `expects` is what it goes on; anything else is a SchemaError saying what to change.
 */
export function memberDecorator(decorator: string, expects: MemberKind, apply: ApplyMember): (...args: unknown[]) => void {
  return (...args: unknown[]) => {
    const call = decoratorCall(args);
    if (!call) throw new SchemaError(`${decorator} goes on a class ${expects}; it was called with ${args.length} arguments`);
    if (call.form === 'legacy') return applyLegacy(decorator, expects, call, apply);
    const { context } = call;
    const name = String(context.name);
    if (context.kind === 'class') throw new SchemaError(`${name}: ${decorator} goes on a ${expects} of the class, not on the class`);
    if (!context.metadata) throw noMetadataError(decorator, name);
    deferDeclaration(context.metadata, (ctor) => {
      const target = context.static ? ctor : ctor.prototype;
      const where = `${ctor.name}.${name}`;
      const wrong = wrongKind(decorator, expects, context);
      if (wrong) throw new SchemaError(`${where}: ${wrong}`);
      if (context.private) {
        throw new SchemaError(
          `${where}: ${decorator} cannot go on a #private member: redis-record reaches ${expects}s by name; drop the # (TypeScript's private keyword works)`,
        );
      }
      const descriptor =
        context.kind === 'method'
          ? { value: call.value, writable: true, configurable: true }
          : context.kind === 'getter'
            ? { get: call.value as () => unknown, configurable: true }
            : undefined;
      apply(target, context.name!, descriptor);
    });
  };
}

function applyLegacy(decorator: string, expects: MemberKind, call: Extract<DecoratorCall, { form: 'legacy' }>, apply: ApplyMember): void {
  const { target, key, descriptor } = call;
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  if (call.parameter) throw new SchemaError(`${owner}: ${decorator} goes on a ${expects}, not on a parameter`);
  if (key === undefined) throw new SchemaError(`${owner}: ${decorator} goes on a ${expects} of the class, not on the class`);
  const getter = descriptor !== undefined && typeof descriptor.get === 'function';
  const fits =
    expects === 'field' ? !descriptor : expects === 'getter' ? getter : expects === 'field or getter' ? !descriptor || getter : true;
  if (!fits) {
    const what = !descriptor ? 'a field' : typeof descriptor.value === 'function' ? 'a method' : 'a setter or accessor';
    throw new SchemaError(
      `${owner}.${String(key)}: ${decorator} goes on a ${expects}, and ${String(key)} is ${getter ? 'a getter' : what}`,
    );
  }
  apply(target, key, descriptor);
}

/** Why a standard decorator's member is not what it goes on, or undefined when it is. */
function wrongKind(decorator: string, expects: MemberKind, context: StandardContext): string | undefined {
  const name = String(context.name);
  if (context.kind === expects || (expects === 'field or getter' && (context.kind === 'field' || context.kind === 'getter')))
    return undefined;
  if (context.kind === 'accessor') {
    return `${decorator} goes on a ${expects}, and ${name} is an auto-accessor: drop the accessor keyword${expects === 'field' ? ' (attributes are plain fields)' : ''}`;
  }
  const what = context.kind === 'method' ? 'a method' : context.kind === 'field' ? 'a field' : 'a getter or setter';
  return `${decorator} goes on a ${expects}, and ${name} is ${what}`;
}

/**
 * Refuses a member decorator's factory applied bare, `@Attr` for `@Attr()`: it would be given the member as its
 * options and return a decorator nobody applies, so the property would silently be no attribute. `args` are the
 * factory's arguments. Legacy form: throws. Standard form: the error waits for `@Model`, to name the class, and
 * this returns true: the factory then returns undefined (what a standard decorator that changes nothing returns).
 */
export function refusedBareUse(decorator: string, args: ArrayLike<unknown>): boolean {
  if (!isBareUse(args)) return false;
  const call = decoratorCall(args)!;
  const fix = `write ${decorator}() with parentheses (${decorator} makes the decorator)`;
  if (call.form === 'legacy') {
    const owner = typeof call.target === 'function' ? call.target.name : call.target.constructor.name;
    throw new SchemaError(`${owner}.${String(call.key)}: ${fix}`);
  }
  const name = String(call.context.name);
  if (!call.context.metadata || call.context.kind === 'class') throw new SchemaError(`${name}: ${fix}`);
  deferDeclaration(call.context.metadata, (ctor) => {
    throw new SchemaError(`${ctor.name}.${name}: ${fix}`);
  });
  return true;
}

import { describeValue } from '../util/describe-value';
import { SchemaError } from '../errors/errors';
import { unknownOption } from '../errors/options-argument';

/**
 * The options object `value` of `decorator` (`@Model`, `@Attr`, or a nested object such as `cap`), checked when
 * the decorator is applied: `{}` when none was given. null, an array or a primitive, or a name outside `allowed`
 * is a SchemaError naming `where` (the class, or the class and property). A misspelt name (`ttll`, `sortabel`,
 * `ordr`) would otherwise be ignored without a word, and the model would do something else than what was
 * declared (a cap keeping the highest values when the lowest were asked for). An option set to undefined is
 * absent, as everywhere (knownOptions refuses the other calls' unknown options the same way).
 */
export function decoratorOptions<T extends object>(where: string, decorator: string, value: T | undefined, allowed: readonly string[]): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchemaError(`${where}: ${decorator} takes an options object, got ${describeValue(value)}`);
  }
  refuseUnknownNames(where, decorator, value, allowed);
  return value;
}

/**
 * For a decorator that takes no options (`@Counter()`, `@Version()`, `@DynamicAttrs()`, `@BeforeSave()`...): the
 * arguments its factory was called with, each undefined or an object without a (defined) option; else a
 * SchemaError naming `where`, the decorator and what was given.
 */
export function refuseDecoratorArguments(where: string, decorator: string, given: ArrayLike<unknown>): void {
  for (let i = 0; i < given.length; i++) {
    const value = given[i];
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new SchemaError(`${where}: ${decorator} takes no options, got ${describeValue(value)}`);
    }
    refuseUnknownNames(where, decorator, value, []);
  }
}

function refuseUnknownNames(where: string, decorator: string, value: object, allowed: readonly string[]): void {
  const unknown = unknownOption(value, allowed);
  if (unknown === undefined) return;
  const known = allowed.length === 0 ? 'no options' : allowed.join(', ');
  throw new SchemaError(`${where}: unknown ${decorator} option ${describeValue(unknown)} (${decorator} takes ${known})`);
}

/**
 * An object literal (or `Object.create(null)`), of any realm: its prototype is null or a realm's
 * Object.prototype. Not an array, a Date, a Map, a URL or a class instance, whose properties are not the
 * keys the caller wrote (a where, options, attributes).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

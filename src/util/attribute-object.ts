/**
 * Whether `value` can be read as an object of attributes, by build() and create() and by saveMany for an item
 * that is not an instance of the model: an object whose own properties are what the caller wrote (a literal,
 * an `Object.create(null)`, an instance of a class of the caller's own). Not a primitive or an array, nor a
 * built-in object that keeps its data elsewhere than in own properties (a Map, a Set, a Date, a RegExp, a
 * Promise, ...): it would be read as no attributes at all, and an empty object created without a word.
 * Entities pass (their tag is an Object's): the caller tells them apart, since their properties are another
 * object's state, not attributes given.
 */
export function isAttributeObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === Object.prototype || prototype === null) return true; // a literal: what most calls give
  return !Array.isArray(value) && Object.prototype.toString.call(value) === '[object Object]';
}

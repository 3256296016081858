/**
 * The class names along an error's prototype chain, nearest first (Error itself left out): how an error of a
 * library is recognised without importing it (an application may bring its own copy of the library).
 */
export function classNames(error: unknown): string[] {
  const names: string[] = [];
  for (let proto = error && Object.getPrototypeOf(error); proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push(proto.constructor?.name);
  }
  return names;
}

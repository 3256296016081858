/**
 * How an error message names a value it refuses: a string quoted (so that "10" is not read as 10), a number,
 * bigint or boolean as written, anything else by its kind ('null', 'undefined', 'an array', 'a Date', 'an
 * object'). Cut to 60 characters, and it never throws, whatever the value: an object with no string form
 * (Object.create(null)) or one whose toString throws is named by its kind like any other object.
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return cut(JSON.stringify(value));
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return cut(`${value}n`);
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return withArticle(constructorName(value as object) ?? 'object');
}

function constructorName(value: object): string | undefined {
  try {
    const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
    if (prototype === null || prototype === Object.prototype) return undefined;
    const name = prototype.constructor?.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined; // a proxy whose getPrototypeOf throws
  }
}

/** 'a' or 'an' as the name sounds, near enough for class names: an Error, an Update, a User, a Unit, a Date. */
export const withArticle = (noun: string) => `${/^([AEIOaeio]|[Uu](n(?!i)|m|p|g|l))/.test(noun) ? 'an' : 'a'} ${noun}`;

const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

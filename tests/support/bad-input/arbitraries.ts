import fc from 'fast-check';

/** Characters that mean something to Redis key names, globs, Lua, JSON or UTF-16. */
export const SPECIAL_CHARS = [
  '\0',
  ':',
  '{',
  '}',
  '*',
  '[',
  ']',
  '?',
  '\\',
  '\n',
  '\r',
  '\t',
  ' ',
  '"',
  "'",
  '/',
  '.',
  '~',
  '#',
  '@',
  '%',
  '^',
  '-',
  '\u007f',
  '\u0080',
  '\u00ff',
  '\u0301',
  '\u200b',
  '\ufeff',
  '\uffff',
  '\ufffd',
  '😀',
  '𝕏',
  '\u{10ffff}',
  'İ',
  'ß',
  'é',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** One unit of a nasty string: a special character, any code point (astral too), or (rarely) a lone surrogate. */
const nastyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_CHARS) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
);

/** Strings of special characters, full unicode and lone surrogates; `long` adds repeated runs up to ~64 KB. */
export function nastyString(options: { maxLength?: number; long?: boolean } = {}): fc.Arbitrary<string> {
  const short = fc.string({ unit: nastyUnit, maxLength: options.maxLength ?? 24 });
  if (!options.long) return short;
  return fc.oneof(
    { weight: 9, arbitrary: short },
    { weight: 1, arbitrary: fc.tuple(short, fc.integer({ min: 100, max: 4000 })).map(([s, n]) => (s || ':').repeat(n).slice(0, 65536)) },
  );
}

/** About 1 MB of text with separators and an astral character, for the few very long cases. */
export const MEGABYTE_STRINGS = ['x'.repeat(1 << 20), `a:{b}*[?\\\n\0😀`.repeat(80_000), '😀'.repeat(1 << 18)];

/** Well-formed strings (no lone surrogate): what a string attribute accepts. */
export function wellFormedString(maxLength = 16): fc.Arbitrary<string> {
  return nastyString({ maxLength }).filter((s) => s.isWellFormed());
}

const EDGE_NUMBERS = [
  NaN,
  Infinity,
  -Infinity,
  -0,
  0,
  2 ** 53 + 1,
  2 ** 53,
  -(2 ** 53) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1e21,
  1e-7,
  2.2250738585072014e-308,
  2.225073858507201e-308,
  0.1 + 0.2,
  1e308,
  2 ** 63,
  2 ** 64,
  -(2 ** 63),
];

/** Any double: NaN, infinities, -0, denormals, huge, and the usual suspects. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS),
  fc.double(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ min: -1e-300, max: 1e-300 }),
);

/** Dates: valid ones near the edges of the range, Invalid Dates, dates one millisecond past the range. */
export const nastyDate: fc.Arbitrary<Date> = fc.oneof(
  fc.date({ noInvalidDate: false }),
  fc.constantFrom(8.64e15, -8.64e15, 8.64e15 + 1, 0, -1, NaN, 1.5, -0).map((t) => new Date(t)),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
);

function ownProperty(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'hasOwnProperty', '');

/** JSON-like values: valid JSON (also with __proto__ / constructor keys from JSON.parse) and the values JSON would change. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false),
    nastyNumber,
    nastyString(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => {
      const holey = [...items];
      holey.length += 2; // holes at the end
      return holey;
    }),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => [...items, undefined]),
    fc
      .array(fc.tuple(fc.oneof(dangerousKey, nastyString({ maxLength: 6 })), tie('value')), { maxLength: 4 })
      .map((entries) => entries.reduce<Record<string, unknown>>((target, [key, value]) => ownProperty(target, key, value), {})),
    fc
      .constantFrom(
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '[{"__proto__":{"isAdmin":true}},{"a":{"__proto__":null}}]',
        '{"__proto__":[1,2],"constructor":"x","prototype":{}}',
      )
      .map((text) => JSON.parse(text)),
    fc.constantFrom(new Date(0), new Map(), Object.create(null), [1, , 3], Object.assign([1], { extra: 1 }), { d: new Date(NaN) }),
  ),
})).value;

/** Ids as callers could pass them: odd strings, numbers of every kind, and a few plausible ones. */
export const nastyId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    '*',
    '1:attributes',
    '../x',
    '{x}',
    ' 1',
    '01',
    '1 ',
    '1\n',
    '1\0',
    '٣',
    '１',
    '1e3',
    '0x1',
    '-1',
    '+1',
    'a'.repeat(128),
    'a'.repeat(129),
    '1',
    '2',
    '3',
    '0',
    '__proto__',
    'constructor',
  ),
  nastyString({ maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
  nastyNumber,
  fc.integer({ min: 0, max: 5 }),
  fc.constantFrom(null, undefined, true, {}, [1], 1n),
);

/** Attribute names as a program could pass them to a decorator at runtime. */
export const attributeName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'a:b',
    '{x}',
    'a*',
    'a?',
    '[a]',
    'a\\b',
    '~x',
    '#id',
    'a b',
    '',
    '1a',
    'id',
    '__proto__',
    'constructor',
    'prototype',
    'ok',
    '$x',
    '_',
    'é',
    'a\0',
    'a\n',
  ),
  nastyString({ maxLength: 8 }),
  fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,10}$/),
);

/**
 * `Symbol.metadata`, which the standard (TC39) decorators' `context.metadata` needs: TypeScript gives decorators
 * a metadata object only when it exists as the class is defined, and Node 20 and 22 lack it. Every decorator
 * module imports this one, so it is defined before any model class is. The value is the one esbuild and Babel
 * use when it is missing (`Symbol.for('Symbol.metadata')`), so classes compiled by any of them agree on it.
 */
const symbols = Symbol as unknown as { metadata?: symbol };
symbols.metadata ??= Symbol.for('Symbol.metadata');

/** The decorator metadata object a class was defined with (standard decorators), if it has one of its own. */
export function ownMetadataOf(ctor: Function): object | undefined {
  const key = symbols.metadata!;
  const metadata: unknown = Object.hasOwn(ctor, key) ? (ctor as unknown as Record<symbol, unknown>)[key] : undefined;
  return typeof metadata === 'object' && metadata !== null ? metadata : undefined;
}

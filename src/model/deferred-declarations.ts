import { SchemaError } from '../errors/errors';
import { ownMetadataOf } from './symbol-metadata';

/**
 * The bridge from standard (TC39) member decorators to the pending metadata of the legacy ones. A standard field
 * or method decorator sees neither the class nor its prototype, only the class's `context.metadata` object, so it
 * leaves its work there as a declaration; `@Model` runs the declarations of the class and of its base classes
 * (once each, on the class that made them) and then reads the pending metadata as for legacy decorators. Error
 * messages so name the class, in both forms.
 */
export type Declaration = (ctor: Function) => void;

const DECLARATIONS = Symbol('redis-record:declarations');
/** Metadata objects whose declarations have run: true, or the error they threw (thrown again for each subclass). */
const ran = new WeakMap<object, true | { error: unknown }>();

/** Leaves a member decorator's work in its class's metadata object, for `@Model` to run. */
export function deferDeclaration(metadata: object, declaration: Declaration): void {
  const holder = metadata as Record<symbol, Declaration[] | undefined>;
  if (!Object.hasOwn(holder, DECLARATIONS)) {
    Object.defineProperty(holder, DECLARATIONS, { value: [], enumerable: false, configurable: true, writable: false });
  }
  holder[DECLARATIONS]!.push(declaration);
}

/**
 * Runs the declarations of the class `ctor` (whose metadata object is `metadata` when a standard class decorator
 * runs: the class does not hold it yet) and of its base classes, from the furthest base down, each once.
 */
export function runDeclarations(ctor: Function, metadata: object | undefined): void {
  const levels: Array<[Function, object]> = [];
  for (let c: Function | null = ctor; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = c === ctor ? (metadata ?? ownMetadataOf(c)) : ownMetadataOf(c);
    if (own) levels.unshift([c, own]);
  }
  for (const [owner, own] of levels) runOnce(owner, own);
}

function runOnce(owner: Function, metadata: object): void {
  const done = ran.get(metadata);
  if (done === true) return;
  if (done) throw done.error;
  const declarations = Object.hasOwn(metadata, DECLARATIONS) ? (metadata as Record<symbol, Declaration[]>)[DECLARATIONS] : [];
  ran.set(metadata, true);
  try {
    for (const declare of declarations) declare(owner);
  } catch (error) {
    ran.set(metadata, { error });
    throw error;
  }
}

/** The SchemaError for a standard decorator given no `context.metadata`: nowhere to leave its work. */
export function noMetadataError(decorator: string, member: string): SchemaError {
  return new SchemaError(
    `${member}: ${decorator} was given no decorator metadata (context.metadata): compile with TypeScript 5.2 or later (or esbuild, swc, Babel with decorator metadata), or turn on experimentalDecorators in tsconfig.json`,
  );
}

import { IndexDescriptor, IndexKind } from '../model/index-descriptor';

/**
 * An index as the scripts read it (indexes.lua): from a model's descriptor (specOf), or from a stored definition
 * (the integrity tools, which work without the application's classes).
 */
export interface IndexSpec {
  readonly kind: IndexKind;
  /** Unique only: values compared in lower case (kind 'C' for the scripts). */
  readonly caseInsensitive: boolean;
  /** The attribute's hash field; a composite unique's or compound index's parts' fields joined by `+`. */
  readonly field: string;
  /** The scope attribute's field of a scoped (composite) index; undefined when unscoped. */
  readonly scope: string | undefined;
  /** The attribute holds numbers. */
  readonly numeric: boolean;
  /** The scope attribute holds numbers. */
  readonly numericScope: boolean;
  /**
   * An index over several attributes, per part: a composite unique's part holds numbers (its -0 is 0), a compound
   * index's part holds numbers or Dates (ordered as numbers) rather than strings.
   */
  readonly numericParts?: readonly boolean[];
}

/** The one-letter kind the scripts use (indexes.lua). */
function kindLetter(spec: IndexSpec): string {
  const kind = spec.kind;
  if (kind === 'set') return 'S';
  if (kind === 'score') return 'Z';
  if (kind === 'lex') return 'L';
  if (kind === 'tag') return 'T';
  if (kind === 'compound') return 'K';
  if (spec.numericParts) return 'M';
  return spec.caseInsensitive ? 'C' : 'U';
}

/**
 * Appends one spec's four values: kind, attribute field, scope field ('' none), numeric flags ('a', 's'; for an
 * index over several attributes '1' or '0' per part).
 */
export function pushSpec(args: Array<string | Buffer>, spec: IndexSpec): void {
  const numeric = spec.numericParts
    ? spec.numericParts.map((flag) => (flag ? '1' : '0')).join('')
    : `${spec.numeric ? 'a' : ''}${spec.numericScope ? 's' : ''}`;
  args.push(kindLetter(spec), spec.field, spec.scope ?? '', numeric);
}

/** Appends `k, then k index specs` of specs given as IndexSpec (a stored definition's). */
export function pushIndexSpecs(args: Array<string | Buffer>, specs: readonly IndexSpec[]): void {
  args.push(String(specs.length));
  for (const spec of specs) pushSpec(args, spec);
}

const specs = new WeakMap<IndexDescriptor, IndexSpec>();

/** A model's index as the scripts read it (made once per descriptor). */
export function specOf(index: IndexDescriptor): IndexSpec {
  let spec = specs.get(index);
  if (!spec) {
    const compound = index.kind === 'compound';
    spec = {
      kind: index.kind,
      caseInsensitive: index.caseInsensitive,
      field: index.attribute.field,
      scope: index.scope?.field,
      numeric: index.attribute.type === 'number',
      numericScope: index.scope?.type === 'number',
      ...(index.parts ? { numericParts: index.parts.map((part) => (compound ? part.type !== 'string' : part.type === 'number')) } : {}),
    };
    specs.set(index, spec);
  }
  return spec;
}

/** Appends `k, then k index specs` in the form the scripts read (indexes.lua: kind, attribute, scope, numeric). */
export function pushSpecs(args: Array<string | Buffer>, indexes: readonly IndexDescriptor[]): void {
  args.push(String(indexes.length));
  for (const index of indexes) pushSpec(args, specOf(index));
}

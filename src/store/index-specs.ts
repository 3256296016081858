import { IndexDescriptor } from '../model/index-descriptor';

/**
 * An index as the scripts read it (indexes.lua): from a model's descriptor (specOf), or from a stored definition
 * (the integrity tools, which work without the application's classes).
 */
export interface IndexSpec {
  readonly kind: 'set' | 'score' | 'lex' | 'unique';
  /** Unique only: values compared in lower case (kind 'C' for the scripts). */
  readonly caseInsensitive: boolean;
  /** The attribute's hash field. */
  readonly field: string;
  /** The scope attribute's field of a scoped (composite) index; undefined when unscoped. */
  readonly scope: string | undefined;
  /** The attribute holds numbers. */
  readonly numeric: boolean;
  /** The scope attribute holds numbers. */
  readonly numericScope: boolean;
  /** A composite unique (`field` is its parts' fields joined by `+`): whether each part holds numbers. */
  readonly numericParts?: readonly boolean[];
}

/** The one-letter kind the scripts use (indexes.lua). */
function kindLetter(kind: IndexSpec['kind'], caseInsensitive: boolean): string {
  if (kind === 'set') return 'S';
  if (kind === 'score') return 'Z';
  if (kind === 'lex') return 'L';
  return caseInsensitive ? 'C' : 'U';
}

/** Appends one spec's four values: kind, attribute field, scope field ('' none), numeric flags ('a', 's'). */
export function pushSpec(args: Array<string | Buffer>, spec: IndexSpec): void {
  if (spec.numericParts) {
    args.push('M', spec.field, '', compositeFlags(spec.numericParts));
    return;
  }
  const numeric = `${spec.numeric ? 'a' : ''}${spec.numericScope ? 's' : ''}`;
  args.push(kindLetter(spec.kind, spec.caseInsensitive), spec.field, spec.scope ?? '', numeric);
}

/** A composite unique's numeric flags as the scripts read them: '1' or '0' per part (indexes.lua). */
function compositeFlags(numeric: readonly boolean[]): string {
  return numeric.map((flag) => (flag ? '1' : '0')).join('');
}

/** Appends `k, then k index specs` of specs given as IndexSpec (a stored definition's). */
export function pushIndexSpecs(args: Array<string | Buffer>, specs: readonly IndexSpec[]): void {
  args.push(String(specs.length));
  for (const spec of specs) pushSpec(args, spec);
}

/** Appends `k, then k index specs` in the form the scripts read (indexes.lua: kind, attribute, scope, numeric). */
export function pushSpecs(args: Array<string | Buffer>, indexes: readonly IndexDescriptor[]): void {
  args.push(String(indexes.length));
  for (const index of indexes) {
    if (index.parts) {
      args.push('M', index.attribute.field, '', compositeFlags(index.parts.map((part) => part.type === 'number')));
      continue;
    }
    const numeric = `${index.attribute.type === 'number' ? 'a' : ''}${index.scope?.type === 'number' ? 's' : ''}`;
    args.push(kindLetter(index.kind, index.caseInsensitive), index.attribute.field, index.scope?.field ?? '', numeric);
  }
}

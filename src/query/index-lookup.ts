import { ModelKeys } from '../keys/model-keys';
import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';

/** Attribute field -> the single value an equality pins it to, in this AND level and the ones around it. */
export type Pins = ReadonlyMap<string, string>;

/** A sorted index found for a query, with the pinned value of its scope when it is read for that value. */
export interface FoundSortedIndex {
  readonly index: IndexDescriptor;
  readonly scopeValue?: string;
}

export function indexesOf(model: ModelDescriptor, field: string): IndexDescriptor[] {
  return model.indexes.filter((index) => index.attribute.field === field);
}

/**
 * A sorted index of the attribute usable here: one scoped by an attribute the where pins to a value (it holds
 * only that value's objects, so it answers the equality too: a composite index), else the unscoped one.
 */
export function usableSortedIndex(model: ModelDescriptor, field: string, kind: 'score' | 'lex', pins: Pins): FoundSortedIndex | undefined {
  const candidates = indexesOf(model, field).filter((index) => index.kind === kind);
  for (const index of candidates) {
    const scopeValue = index.scope ? pins.get(index.scope.field) : undefined;
    if (scopeValue !== undefined) return { index, scopeValue };
  }
  const unscoped = candidates.find((index) => !index.scope);
  return unscoped ? { index: unscoped } : undefined;
}

/** A number's index value: -0 is 0 (its stored form keeps '-0' so that it round-trips). Same rule as indexes.lua. */
export function indexValue(type: string, value: string): string {
  return type === 'number' && value === '-0' ? '0' : value;
}

export function sortedKey(keys: ModelKeys, found: FoundSortedIndex): string {
  const { index, scopeValue } = found;
  const scope =
    index.scope && scopeValue !== undefined ? { field: index.scope.field, value: indexValue(index.scope.type, scopeValue) } : undefined;
  return keys.sorted(index.kind === 'lex' ? 'lex' : 'score', index.attribute.field, scope);
}

/** The attribute a sorted index found by usableSortedIndex is scoped by, when it was found by its pinned value. */
export function scopeOf(found: FoundSortedIndex): string | undefined {
  return found.scopeValue === undefined ? undefined : found.index.scope?.field;
}

/** The QueryError message for an attribute whose only index of the kind is scoped, and whose scope is not pinned. */
export function scopedIndexHint(model: ModelDescriptor, field: string, scope: string): string {
  return `${model.name}.${field}: its index is scoped by ${scope}; add an equality on ${scope} to the where, or an unscoped @Index() on ${field}`;
}

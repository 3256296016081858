import { QueryError } from '../errors/errors';
import { ModelKeys } from '../keys/model-keys';
import { AttributeDescriptor } from '../model/attribute-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { FacetSource } from '../store/lua/count-by';
import { ScriptArg } from '../store/query-plan';
import { compileWhere } from './compile-where';

/** A countBy of one model scope (one shard): what count-by.lua reads, and the where's program. */
export interface FacetPlan {
  readonly field: string;
  readonly source: FacetSource;
  readonly program: readonly ScriptArg[];
}

/** The attribute countBy counts the values of: an attribute with an unscoped index (a tag index: its elements). */
export function facetAttribute(model: ModelDescriptor, name: unknown): AttributeDescriptor {
  if (typeof name !== 'string') throw new QueryError(`${model.name}: countBy takes an attribute name`);
  const attribute = model.attribute(name);
  if (!attribute) throw new QueryError(`${model.name} has no attribute ${name}`);
  if (!model.indexes.some((index) => index.attribute === attribute && !index.scope)) {
    throw new QueryError(`${model.name}.${name}: countBy needs @Index() (or @Unique()) on ${name}`);
  }
  return attribute;
}

/**
 * Plans a countBy: the values come from the attribute's score index (no object read), from its whole lex index
 * when there is no where, else from each match's hash field.
 */
export function planFacet(model: ModelDescriptor, keys: ModelKeys, attribute: AttributeDescriptor, where: unknown): FacetPlan {
  const program = compileWhere(model, keys, where) ?? [];
  const field = attribute.field;
  const own = model.indexes.filter((index) => index.attribute === attribute && !index.scope);
  // a tag index's attribute is counted by element: how many matches hold each
  let source: FacetSource = { kind: own.some((index) => index.kind === 'tag') ? 'tags' : 'hash' };
  if (own.some((index) => index.kind === 'score')) source = { kind: 'score', key: keys.sorted('score', field) };
  else if (program.length === 0 && own.some((index) => index.kind === 'lex')) source = { kind: 'lex', key: keys.sorted('lex', field) };
  return { field, source, program };
}

/**
 * The key a value is counted under in countBy's result: a number as JavaScript writes it, a Date as its ISO
 * string, a boolean as 'true' or 'false', a string as it is (a custom codec's value in its stored form).
 */
export function facetKey(attribute: AttributeDescriptor, stored: string): string {
  if (attribute.type === 'number') return String(Number(stored));
  if (attribute.type === 'date') return new Date(Number(stored)).toISOString();
  return stored;
}

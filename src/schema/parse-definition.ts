import { ATTRIBUTE_TYPES } from '../codecs/attribute-type';
import { MAX_SHARDS } from '../keys/shard-tags';
import { isValidModelName } from '../model/model-name';
import { isIdentifier } from '../model/attribute-name';
import { partsOfName } from '../model/index-descriptor';
import { DEFINITION_FORMAT, StoredDefinition } from './stored-definition';

/**
 * A stored definition that is not one redis-record could have written: bad JSON is a SyntaxError, anything
 * else this (a field missing or of the wrong type, a name that is not the one it is stored under). Either way
 * the definition is broken: never used to name keys (docs/cli.md, docs/operations.md).
 */
export class StoredDefinitionError extends Error {}

const STORED_TYPES: readonly unknown[] = [...ATTRIBUTE_TYPES, 'custom'];
const INDEX_KINDS: readonly unknown[] = ['set', 'score', 'lex', 'unique', 'tag', 'compound'];
const ON_DELETE: readonly unknown[] = ['restrict', 'cascade', 'nullify'];

type Fields = Record<string, unknown>;

/** Checks one part of a definition; `where` names it in the message (`indexes[0].scope`). */
class Shape {
  constructor(private readonly where: string) {}

  fail(what: string): never {
    throw new StoredDefinitionError(`not a stored model definition of format ${DEFINITION_FORMAT}: ${this.where || 'it'} ${what}`);
  }

  at(name: string | number): Shape {
    return new Shape(typeof name === 'number' ? `${this.where}[${name}]` : this.where === '' ? name : `${this.where}.${name}`);
  }

  object(value: unknown): Fields {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(`must be an object, got ${show(value)}`);
    return value as Fields;
  }

  array(value: unknown): unknown[] {
    if (!Array.isArray(value)) this.fail(`must be an array, got ${show(value)}`);
    return value;
  }

  oneOf(value: unknown, allowed: readonly unknown[]): void {
    if (!allowed.includes(value)) this.fail(`must be one of ${allowed.map(show).join(', ')}, got ${show(value)}`);
  }

  string(value: unknown): void {
    if (typeof value !== 'string') this.fail(`must be a string, got ${show(value)}`);
  }

  identifier(value: unknown): void {
    if (!isIdentifier(value)) this.fail(`must be an attribute name (an identifier), got ${show(value)}`);
  }

  modelName(value: unknown): void {
    if (!isValidModelName(value)) this.fail(`must be a model name (1 to 64 letters, digits or _), got ${show(value)}`);
  }

  wholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
      this.fail(`must be a whole number from ${min} to ${max}, got ${show(value)}`);
    }
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 40)}...` : json;
}

function nullOr(value: unknown, check: (value: unknown) => void): void {
  if (value !== null) check(value);
}

function checkRelation(shape: Shape, value: unknown): void {
  const relation = shape.object(value);
  shape.at('kind').oneOf(relation.kind, ['belongsTo', 'hasMany', 'manyToMany']);
  shape.at('property').identifier(relation.property);
  shape.at('target').modelName(relation.target);
  if (relation.kind === 'belongsTo') shape.at('foreignKey').identifier(relation.foreignKey);
  else if (relation.kind === 'hasMany') {
    shape.at('inverse').identifier(relation.inverse);
    shape.at('onDelete').oneOf(relation.onDelete, ON_DELETE);
  } else {
    nullOr(relation.inverse, (inverse) => shape.at('inverse').identifier(inverse));
    if (relation.ordered !== undefined) shape.at('ordered').oneOf(relation.ordered, [true]);
  }
}

/**
 * Checks that `value` is a definition of this format, stored under the field `name`: every field there, of its
 * type; names (the model's, its group's, its relations' targets) following the model-name rule, and the model's
 * equal to `name`; attribute, index and relation names plain identifiers (they name hash fields and key parts).
 */
function checkDefinition(value: unknown, name: string): StoredDefinition {
  const top = new Shape('');
  const definition = top.object(value);
  if (definition.format !== DEFINITION_FORMAT) top.at('format').fail(`must be ${DEFINITION_FORMAT}, got ${show(definition.format)}`);
  top.at('name').modelName(definition.name);
  if (definition.name !== name) top.at('name').fail(`must be the name it is stored under (${show(name)}), got ${show(definition.name)}`);
  nullOr(definition.group, (group) => top.at('group').modelName(group));
  const layout = top.at('layout').object(definition.layout);
  top.at('layout.hashTag').oneOf(layout.hashTag, [definition.group === null ? 'model' : 'group']);
  top.at('layout.tenants').oneOf(layout.tenants, ['<tenant>/ inside the hash tag']);
  top.at('idStrategy').oneOf(definition.idStrategy, ['sequence', 'uuid', 'given']);
  nullOr(definition.ttlMs, (ttl) => top.at('ttlMs').wholeNumber(ttl, 1));
  nullOr(definition.cap, (value) => {
    const shape = top.at('cap');
    const cap = shape.object(value);
    shape.at('by').identifier(cap.by);
    shape.at('keep').wholeNumber(cap.keep, 1);
    shape.at('order').oneOf(cap.order, ['asc', 'desc']);
    if (cap.per !== undefined) shape.at('per').identifier(cap.per);
  });
  nullOr(definition.dynamicProperty, (property) => top.at('dynamicProperty').identifier(property));
  top
    .at('attributes')
    .array(definition.attributes)
    .forEach((value, i) => {
      const shape = top.at('attributes').at(i);
      const attribute = shape.object(value);
      shape.at('property').identifier(attribute.property);
      shape.at('field').identifier(attribute.field);
      shape.at('type').oneOf(attribute.type, STORED_TYPES);
      shape.at('role').oneOf(attribute.role, ['counter', 'version', null]);
    });
  top
    .at('indexes')
    .array(definition.indexes)
    .forEach((value, i) => {
      const shape = top.at('indexes').at(i);
      const index = shape.object(value);
      shape.at('kind').oneOf(index.kind, INDEX_KINDS);
      // a composite unique or compound index is named by its parts' fields joined by '+' (`userId+channelId`),
      // each an identifier
      const parts =
        (index.kind === 'unique' || index.kind === 'compound') && typeof index.attribute === 'string'
          ? partsOfName(index.attribute)
          : undefined;
      if (parts) parts.forEach((part) => shape.at('attribute').identifier(part));
      else shape.at('attribute').identifier(index.attribute);
      nullOr(index.scope, (scope) => shape.at('scope').identifier(scope));
      shape.at('caseInsensitive').oneOf(index.caseInsensitive, [true, false]);
    });
  top
    .at('relations')
    .array(definition.relations)
    .forEach((value, i) => checkRelation(top.at('relations').at(i), value));
  if (definition.shards !== undefined) top.at('shards').wholeNumber(definition.shards, 2, MAX_SHARDS);
  if (definition.stale !== undefined)
    top
      .at('stale')
      .array(definition.stale)
      .forEach((stale, i) => top.at('stale').at(i).string(stale));
  if (definition.memosKept !== undefined) top.at('memosKept').oneOf(definition.memosKept, [true]);
  top.at('hash').string(definition.hash);
  return definition as unknown as StoredDefinition;
}

/**
 * Reads the definition stored under the field `name` of `<prefix>#models`; throws a SyntaxError (not JSON) or
 * a StoredDefinitionError (not a definition of this format, see checkDefinition) for a broken one.
 */
export function parseDefinition(json: string, name: string): StoredDefinition {
  return checkDefinition(JSON.parse(json), name);
}

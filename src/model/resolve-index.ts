import { SchemaError } from '../errors/errors';
import { AttributeDescriptor } from './attribute-descriptor';
import { codecFor } from '../codecs/attribute-type';
import { IndexDescriptor, PART_SEPARATOR } from './index-descriptor';
import { PendingIndex } from './pending-metadata';

/** Checks an index declaration against the model's attributes and picks its kind from the attribute's type. */
export function resolveIndex(pending: PendingIndex, attributeOf: (name: string) => AttributeDescriptor | undefined): IndexDescriptor {
  if (pending.parts && pending.kind === 'index') return resolveCompoundIndex(pending.owner, pending.parts, attributeOf);
  if (pending.parts) return resolveComposite(pending.owner, pending.parts, attributeOf);
  const where = `${pending.owner}.${pending.property}`;
  const attribute = attributeOf(pending.property);
  if (!attribute) {
    const decorator = pending.kind === 'index' ? 'Index' : 'Unique';
    throw new SchemaError(`${where}: @${decorator} needs @Attr() on the same property (or @Computed() on a getter)`);
  }
  const { sortable, scope, caseInsensitive, each } = pending.options;
  if (each !== undefined && each !== true && each !== false) throw new SchemaError(`${where}: each must be true or false`);
  if (each === true) {
    if (attribute.type !== 'json') {
      throw new SchemaError(`${where}: each indexes the elements of an array: declare it @Attr({ type: 'json' }) with an array type`);
    }
    if (sortable || scope !== undefined) throw new SchemaError(`${where}: each takes neither sortable nor scope`);
    return { kind: 'tag', attribute, caseInsensitive: false };
  }
  if (attribute.type === 'json') {
    throw new SchemaError(`${where}: json attributes cannot be indexed as a whole; @Index({ each: true }) indexes an array's elements`);
  }

  if (pending.kind === 'unique') {
    if (caseInsensitive && attribute.type !== 'string') {
      throw new SchemaError(`${where}: caseInsensitive applies to string attributes only`);
    }
    return { kind: 'unique', attribute, caseInsensitive: Boolean(caseInsensitive) };
  }

  const ordered = attribute.type === 'number' || attribute.type === 'date';
  if (sortable && ordered) {
    const what = attribute.type === 'number' ? 'a number' : 'a Date';
    throw new SchemaError(
      `${where}: sortable applies to string attributes; ${what} is always ordered, so @Index() alone gives ranges and orderBy`,
    );
  }
  if (sortable && attribute.type !== 'string') {
    throw new SchemaError(`${where}: sortable applies to string attributes (numbers and Dates are always ordered)`);
  }
  const kind: IndexDescriptor['kind'] = ordered ? 'score' : sortable ? 'lex' : 'set';

  if (scope === undefined) return { kind, attribute, caseInsensitive: false };
  if (typeof scope !== 'string') throw new SchemaError(`${where}: scope must name an attribute`);
  const scopeAttribute = attributeOf(scope);
  if (!scopeAttribute) throw new SchemaError(`${where}: scope ${JSON.stringify(scope)} is not an attribute of the model`);
  if (scope === pending.property) throw new SchemaError(`${where}: an index cannot be scoped by its own attribute`);
  if (scopeAttribute.type === 'json') throw new SchemaError(`${where}: scope ${scope} is a json attribute`);
  if (kind === 'set') {
    throw new SchemaError(`${where}: scope needs an ordered index (a number, a Date or a sortable string)`);
  }
  return { kind, attribute, scope: scopeAttribute, caseInsensitive: false };
}

/**
 * A composite unique (`@Unique(['userId', 'channelId'])` on the class): each part an attribute of the model that
 * is no JSON, counter or version, none twice. Its `attribute` is its name (the parts' fields joined by `+`).
 */
function resolveComposite(
  owner: string,
  names: readonly string[],
  attributeOf: (name: string) => AttributeDescriptor | undefined,
): IndexDescriptor {
  const where = `${owner}: @Unique([${names.map((name) => JSON.stringify(name)).join(', ')}])`;
  const parts = names.map((name) => {
    const attribute = attributeOf(name);
    if (!attribute) throw new SchemaError(`${where}: ${JSON.stringify(name)} is not an attribute of the model (declare it with @Attr())`);
    if (attribute.type === 'json') throw new SchemaError(`${where}: ${name} is a json attribute, which cannot be unique`);
    if (attribute.role) throw new SchemaError(`${where}: ${name} is a counter or version, which cannot be unique`);
    return attribute;
  });
  if (new Set(names).size !== names.length) throw new SchemaError(`${where}: an attribute is named twice`);
  return { kind: 'unique', attribute: nameAttribute(parts), parts, caseInsensitive: false };
}

/** The types a compound index's parts may hold: each has a sortable form (src/keys/compound-member.ts). */
const COMPOUND_TYPES = new Set(['number', 'date', 'string']);

/** A class-level `@Index(['a', 'b', ...])`: two or more distinct number, Date or string attributes. */
function resolveCompoundIndex(
  owner: string,
  names: readonly string[],
  attributeOf: (name: string) => AttributeDescriptor | undefined,
): IndexDescriptor {
  const where = `${owner}: @Index([${names.map((name) => JSON.stringify(name)).join(', ')}])`;
  if (names.length < 2) throw new SchemaError(`${where} takes two or more attributes (one: put @Index() on the property)`);
  if (new Set(names).size !== names.length) throw new SchemaError(`${where} names an attribute twice`);
  const parts = names.map((name) => {
    const attribute = attributeOf(name);
    if (!attribute) throw new SchemaError(`${where}: ${name} is not an attribute of the model`);
    if (!COMPOUND_TYPES.has(attribute.type)) {
      throw new SchemaError(`${where}: ${name} is a ${attribute.type} attribute; a compound index orders numbers, Dates and strings`);
    }
    return attribute;
  });
  return { kind: 'compound', attribute: nameAttribute(parts), parts, caseInsensitive: false };
}

/** The stand-in attribute of an index over several attributes: its name, the parts' fields joined by `+`. */
function nameAttribute(parts: readonly AttributeDescriptor[]): AttributeDescriptor {
  const name = parts.map((part) => part.field).join(PART_SEPARATOR);
  return { property: name, field: name, type: 'string', codec: codecFor('string') };
}

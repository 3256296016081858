import { asError } from '../errors/as-error';
import { codecFor, ATTRIBUTE_TYPES, AttributeType } from '../codecs/attribute-type';
import { StoredDefinition } from '../schema/stored-definition';

/** One field of an object's hash, decoded by the type its stored definition gives it (inspectObject). */
export interface DecodedAttribute {
  /** The attribute's property name; `<dynamic property>.<name>` for a dynamic attribute. */
  readonly property: string;
  /** The hash field it is stored in. */
  readonly field: string;
  /** The stored type; `dynamic` for a `~<key>` field, `unknown` for a field the definition does not declare. */
  readonly type: string;
  /** The field's value as stored. */
  readonly stored: string;
  /** The value decoded by its stored type: Dates as ISO strings; `custom` and undecodable values stay stored strings. */
  readonly value: unknown;
  /** Set when the stored string is not one the type's codec writes. */
  readonly error?: string;
}

function decodeTyped(type: string, stored: string): { value: unknown; error?: string } {
  if (!(ATTRIBUTE_TYPES as readonly string[]).includes(type)) return { value: stored };
  try {
    const value = codecFor(type as AttributeType).decode(stored);
    return { value: value instanceof Date ? value.toISOString() : value };
  } catch (error) {
    return { value: stored, error: asError(error).message };
  }
}

/** Dynamic attribute values carry a one-letter type tag (docs/keys.md#hash-fields). */
function decodeDynamic(stored: string): { value: unknown; error?: string } {
  const body = stored.slice(1);
  if (stored[0] === 's') return { value: body };
  if (stored[0] === 'n' && body !== '' && Number.isFinite(Number(body))) return { value: Number(body) };
  if (stored === 'b1' || stored === 'b0') return { value: stored === 'b1' };
  return { value: stored, error: 'not a tagged dynamic value' };
}

/**
 * An object's hash decoded from its stored definition alone: declared attributes in declaration order, then
 * dynamic attributes, then fields the definition does not declare. Internal `#` fields are returned apart.
 */
export function decodeHash(
  definition: StoredDefinition,
  hash: Record<string, string>,
): { attributes: DecodedAttribute[]; internal: Record<string, string> } {
  const attributes: DecodedAttribute[] = [];
  const internal: Record<string, string> = {};
  const declared = new Set<string>();
  for (const attribute of definition.attributes) {
    declared.add(attribute.field);
    const stored = hash[attribute.field];
    if (stored === undefined) continue;
    attributes.push({
      property: attribute.property,
      field: attribute.field,
      type: attribute.type,
      stored,
      ...decodeTyped(attribute.type, stored),
    });
  }
  for (const [field, stored] of Object.entries(hash).sort(([a], [b]) => a.localeCompare(b))) {
    if (declared.has(field)) continue;
    if (field.startsWith('#')) internal[field] = stored;
    else if (field.startsWith('~'))
      attributes.push({
        property: `${definition.dynamicProperty ?? '~'}.${field.slice(1)}`,
        field,
        type: 'dynamic',
        stored,
        ...decodeDynamic(stored),
      });
    else attributes.push({ property: field, field, type: 'unknown', stored, value: stored });
  }
  return { attributes, internal };
}

import { AttributeFailure, attributeFailure } from '../errors/attribute-failure';
import { DYNAMIC_PREFIX } from '../model/model-descriptor';
import { EncodedFields, FieldSink } from './encoded-fields';

export type DynamicValue = string | number | boolean;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_KEY_LENGTH = 200;

/**
 * Dynamic attributes are stored one hash field per key, `~<key>`, with a one-letter type tag so values
 * round-trip with their type: `s` + string, `n` + number (String form, -0 kept), `b1` / `b0`.
 */
export function encodeDynamic(entity: object, property: string, fields: FieldSink, errors: AttributeFailure[]): void {
  const bag = (entity as Record<string, unknown>)[property];
  if (bag === undefined || bag === null) return;
  if (
    typeof bag !== 'object' ||
    Array.isArray(bag) ||
    (Object.getPrototypeOf(bag) !== Object.prototype && Object.getPrototypeOf(bag) !== null)
  ) {
    errors.push(attributeFailure(entity, property, bag, 'isDynamic', `${property} must be a plain object`));
    return;
  }
  for (const key of Object.keys(bag)) {
    const value = (bag as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    const problem = keyProblem(key) ?? valueProblem(value);
    if (problem) {
      errors.push(attributeFailure(entity, property, bag, 'isDynamic', `${property}[${JSON.stringify(key.slice(0, 40))}] ${problem}`));
      continue;
    }
    fields.set(DYNAMIC_PREFIX + key, tag(value as DynamicValue));
  }
}

function keyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return `keys must be 1 to ${MAX_KEY_LENGTH} characters`;
  if (!key.isWellFormed()) return 'keys must be well-formed unicode';
  if (FORBIDDEN_KEYS.has(key)) return `"${key}" cannot be a key`;
  return undefined;
}

function valueProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : 'holds a lone surrogate';
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (typeof value === 'boolean') return undefined;
  return 'must be a string, a number or a boolean';
}

function tag(value: DynamicValue): string {
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number') return `n${Object.is(value, -0) ? '-0' : String(value)}`;
  return value ? 'b1' : 'b0';
}

/**
 * The dynamic attributes among stored fields. A `~` field this module would not have written (an unknown type
 * tag, a key it refuses) is left out, and left out of the snapshot too (readableDynamic): saves neither
 * rewrite nor remove it.
 */
export function decodeDynamic(fields: EncodedFields): Record<string, DynamicValue> {
  const bag: Record<string, DynamicValue> = {};
  for (const [field, raw] of fields) {
    if (!field.startsWith(DYNAMIC_PREFIX)) continue;
    const value = readDynamic(field, raw);
    if (value !== undefined) bag[field.slice(DYNAMIC_PREFIX.length)] = value;
  }
  return bag;
}

/** Whether a stored `~<key>` field is one decodeDynamic reads (and so one a save may change or remove). */
export function readableDynamic(field: string, raw: string): boolean {
  return readDynamic(field, raw) !== undefined;
}

function readDynamic(field: string, raw: string): DynamicValue | undefined {
  if (keyProblem(field.slice(DYNAMIC_PREFIX.length))) return undefined;
  const body = raw.slice(1);
  if (raw[0] === 's') return body;
  if (raw[0] === 'n' && body !== '' && Number.isFinite(Number(body))) return Number(body);
  if (raw === 'b1' || raw === 'b0') return raw === 'b1';
  return undefined;
}

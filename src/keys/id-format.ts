import { InvalidIdError } from '../errors/errors';

/**
 * Ids become part of key names, so only characters that cannot form another key are allowed: no `:`, no
 * braces (hash tags), no glob characters, no empty id. Sequence ids and uuids both fit.
 */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function normalizeId(model: string, id: unknown): string {
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id) && id >= 0) return String(id);
    throw new InvalidIdError(model, id);
  }
  if (typeof id === 'string' && ID_PATTERN.test(id)) return id;
  throw new InvalidIdError(model, id);
}

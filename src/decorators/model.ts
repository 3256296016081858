import { SchemaError } from '../errors/errors';
import { ModelDescriptor, ModelOptions } from '../metadata/model-descriptor';
import { registerModel } from '../metadata/model-registry';
import { collectAttributes, collectHooks, collectIndexes } from '../metadata/pending-metadata';
import { resolveAttribute } from '../metadata/resolve-attribute';
import { resolveIndex } from '../metadata/resolve-index';
import { IndexDescriptor } from '../metadata/index-descriptor';

const MODEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Declares an entity class as a model; its @Attr properties (and its base classes') are what gets stored. */
export function Model(options: ModelOptions = {}): ClassDecorator {
  return (target) => {
    const name = options.name ?? target.name;
    if (!MODEL_NAME.test(name)) {
      throw new SchemaError(`${target.name}: model name ${JSON.stringify(name)} must be 1 to 64 letters, digits or _`);
    }
    const idStrategy = options.idStrategy ?? 'sequence';
    if (idStrategy !== 'sequence' && idStrategy !== 'uuid') {
      throw new SchemaError(`${target.name}: idStrategy must be 'sequence' or 'uuid'`);
    }
    const ttl = options.ttl;
    if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0 || !Number.isInteger(ttl * 1000))) {
      throw new SchemaError(`${target.name}: ttl must be a positive number of seconds (millisecond precision)`);
    }
    let sample: Record<string, unknown> | undefined;
    const defaults = () => (sample ??= new (target as unknown as new () => Record<string, unknown>)());
    const attributes = collectAttributes(target).map((pending) =>
      resolveAttribute(pending, () => defaults()[pending.property]),
    );
    const byName = new Map(attributes.map((a) => [a.property, a]));
    const indexes: IndexDescriptor[] = [];
    for (const pending of collectIndexes(target)) {
      const index = resolveIndex(pending, (property) => byName.get(property));
      const same = indexes.find(
        (other) => other.kind === index.kind && other.attribute === index.attribute && other.scope === index.scope,
      );
      if (same) throw new SchemaError(`${pending.owner}.${pending.property}: the same index is declared twice`);
      indexes.push(index);
    }
    registerModel(new ModelDescriptor(name, target, idStrategy, ttl === undefined ? undefined : ttl * 1000, attributes, indexes, collectHooks(target)));
  };
}

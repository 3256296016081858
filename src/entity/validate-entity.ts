import { getMetadataStorage, validate } from 'class-validator';
import { ValidationError } from '../errors/errors';
import { ModelDescriptor } from '../metadata/model-descriptor';

const hasRules = new WeakMap<Function, boolean>();

/** Runs class-validator's rules; throws ValidationError with its errors. Classes without rules cost nothing. */
export async function validateEntity(model: ModelDescriptor, entity: object): Promise<void> {
  let rules = hasRules.get(model.ctor);
  if (rules === undefined) {
    rules = getMetadataStorage().getTargetValidationMetadatas(model.ctor, '', true, false).length > 0;
    hasRules.set(model.ctor, rules);
  }
  if (!rules) return;
  const errors = await validate(entity, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ValidationError(model.name, errors);
}

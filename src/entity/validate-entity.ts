import { ValidationError } from '../errors/errors';
import { ModelDescriptor } from '../model/model-descriptor';
import { optionalClassValidator } from '../util/class-validator';

const hasRules = new WeakMap<Function, boolean>();

/** Whether the model's class has class-validator rules (looked up once per class; none without class-validator). */
export function hasValidationRules(model: ModelDescriptor): boolean {
  let rules = hasRules.get(model.ctor);
  if (rules === undefined) {
    const metadata = optionalClassValidator()?.getMetadataStorage();
    rules = metadata !== undefined && metadata.getTargetValidationMetadatas(model.ctor, '', true, false).length > 0;
    hasRules.set(model.ctor, rules);
  }
  return rules;
}

/** Runs class-validator's rules; throws ValidationError with its errors. Classes without rules cost nothing. */
export async function validateEntity(model: ModelDescriptor, entity: object): Promise<void> {
  if (!hasValidationRules(model)) return;
  const errors = await optionalClassValidator()!.validate(entity, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ValidationError(model.name, errors);
}

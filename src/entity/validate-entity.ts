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

/**
 * Runs class-validator's rules on the attributes named in `properties` alone (Model.update: the others are not
 * given, and an instance built from the given ones lacks them); throws ValidationError with their errors.
 */
export async function validateGiven(model: ModelDescriptor, entity: object, properties: ReadonlySet<string>): Promise<void> {
  if (!hasValidationRules(model)) return;
  const errors = await optionalClassValidator()!.validate(entity, { forbidUnknownValues: false, skipMissingProperties: true });
  const given = errors.filter((error) => properties.has(error.property));
  if (given.length > 0) throw new ValidationError(model.name, given);
}

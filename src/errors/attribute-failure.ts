import { ValidationError as ClassValidatorError } from 'class-validator';

/** One failed attribute, in class-validator's shape, so callers read every input error the same way. */
export function attributeFailure(
  target: object,
  property: string,
  value: unknown,
  constraint: string,
  message: string,
): ClassValidatorError {
  const failure = new ClassValidatorError();
  failure.target = target;
  failure.property = property;
  failure.value = value;
  failure.children = [];
  failure.constraints = { [constraint]: message };
  return failure;
}

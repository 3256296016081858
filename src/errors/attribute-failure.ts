import { optionalClassValidator } from '../util/class-validator';

/**
 * One failed attribute, in class-validator's `ValidationError` shape (its own errors have this shape too), so
 * callers read every input error the same way, with or without class-validator installed.
 */
export interface AttributeFailure {
  /** The object validated. */
  target?: object;
  /** The attribute that failed. */
  property: string;
  /** Its value. */
  value?: unknown;
  /** Each failed rule's name, with its message. */
  constraints?: { [rule: string]: string };
  /** Failures of nested objects (class-validator's `@ValidateNested`). */
  children?: AttributeFailure[];
  /** class-validator's contexts of the failed rules. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- class-validator's own type
  contexts?: { [rule: string]: any };
}

/**
 * One failed attribute: a class-validator `ValidationError` where class-validator is installed, else a plain
 * object of the same shape.
 */
export function attributeFailure(target: object, property: string, value: unknown, constraint: string, message: string): AttributeFailure {
  const validator = optionalClassValidator();
  const failure: AttributeFailure = validator ? new validator.ValidationError() : { property };
  failure.target = target;
  failure.property = property;
  failure.value = value;
  failure.children = [];
  failure.constraints = { [constraint]: message };
  return failure;
}

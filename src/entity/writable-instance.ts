import type { ModelDescriptor } from '../model/model-descriptor';
import { ArgumentError } from '../errors/errors';

/**
 * Refuses an operation that writes back into the instance once Redis has answered (reload: every attribute;
 * increment: the counter; a save of a model with @Version: the version) when the instance is frozen, before
 * anything is sent: the write would otherwise land in Redis and the operation then fail while updating the
 * instance, leaving the two apart (and reload would blame the stored data).
 */
export function refuseFrozen(model: ModelDescriptor, entity: object, operation: string): void {
  if (Object.isFrozen(entity)) {
    throw new ArgumentError(
      `${model.name}.${operation}: the instance is frozen, and ${operation} writes into it; use an instance that is not frozen`,
    );
  }
}

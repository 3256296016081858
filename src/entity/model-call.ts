import { asRejection } from '../errors/as-rejection';
import type { ModelDescriptor } from '../model/model-descriptor';
import { descriptorOf } from '../model/model-registry';
import { afterSchema } from '../schema/first-use';

/**
 * A static call of a model class: `run` on its descriptor once the model's schema is known. Errors (a class that
 * is no model, no connection, bad arguments) come as rejections, never thrown.
 */
export function onModel<R>(ctor: Function, run: (model: ModelDescriptor) => Promise<R>): Promise<R> {
  return asRejection(() => {
    const model = descriptorOf(ctor);
    return afterSchema(model, () => run(model));
  });
}

import { activeConnection } from '../redis/connection';
import { ObjectStore } from '../store/object-store';
import { ModelDescriptor } from '../model/model-descriptor';

/** The object store of `model` on the active connection (ConnectionError when there is none). */
export function activeStore(model: ModelDescriptor): ObjectStore {
  return new ObjectStore(model, activeConnection());
}

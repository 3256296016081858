import { activeConnection } from '../connection/connection';
import { ObjectStore } from '../mapper/object-store';
import { ModelDescriptor } from '../metadata/model-descriptor';

/** The object store of `model` on the active connection (ConnectionError when there is none). */
export function activeStore(model: ModelDescriptor): ObjectStore {
  return new ObjectStore(model, activeConnection());
}

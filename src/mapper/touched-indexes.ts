import { IndexDescriptor } from '../model/index-descriptor';
import { ModelDescriptor } from '../model/model-descriptor';
import { ChangeSet } from './change-set';

/**
 * The indexes whose entries depend on the fields a change set writes or removes: what an update must move
 * (an empty list for a change no index depends on).
 */
export function touchedIndexes(model: ModelDescriptor, changes: ChangeSet): IndexDescriptor[] {
  if (model.indexes.length === 0) return [];
  const touched = new Set<IndexDescriptor>();
  const add = (field: string) => {
    for (const index of model.indexesTouching(field)) touched.add(index);
  };
  for (const field of changes.set.keys()) add(field);
  for (const field of changes.removed) add(field);
  return [...touched];
}

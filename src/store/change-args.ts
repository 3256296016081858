import { IndexDescriptor } from '../model/index-descriptor';
import { ChangeSet } from '../mapper/change-set';
import { pushSpecs } from './index-specs';
import type { ParentChecks } from './outcomes';

/**
 * Appends one object's change in the layout save.lua and update-many.lua read: n, then n field/value pairs to
 * set; m, then m fields to remove; k, then the specs of `indexes` (the indexes to move); p, then the pairs
 * (foreign key field, parent object key prefix) of the foreign keys the change sets, each to be checked.
 */
export function pushChangeArgs(
  args: Array<string | Buffer>,
  changes: ChangeSet,
  indexes: readonly IndexDescriptor[],
  parents: ParentChecks,
): void {
  args.push(String(changes.set.size));
  for (const [field, value] of changes.set) args.push(field, value);
  args.push(String(changes.removed.length), ...changes.removed);
  pushSpecs(args, indexes);
  const checked = parents.filter(([field]) => changes.set.has(field));
  args.push(String(checked.length));
  for (const [field, objectPrefix] of checked) args.push(field, objectPrefix);
}

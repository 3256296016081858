import type { ParentChecks } from '../mapper/object-store';
import type { ModelDescriptor } from '../metadata/model-descriptor';
import { inSameTenant } from './tenant-scope';

const NONE: ParentChecks = [];

/** For each @BelongsTo of the model: its foreign key and the parent model's object key prefix. */
export function parentChecks(model: ModelDescriptor, prefix: string): ParentChecks {
  if (model.relations.length === 0) return NONE;
  const checks: Array<readonly [string, string]> = [];
  for (const relation of model.relations) {
    if (relation.kind === 'belongsTo') {
      checks.push([relation.foreignKey, inSameTenant(model, relation.target()).keys(prefix).objectPrefix]);
    }
  }
  return checks;
}

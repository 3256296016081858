import { IndexDescriptor, scriptKind } from '../model/index-descriptor';

/** Appends `k, then k index specs` in the form the scripts read (indexes.lua: kind, attribute, scope, numeric). */
export function pushSpecs(args: string[], indexes: readonly IndexDescriptor[]): void {
  args.push(String(indexes.length));
  for (const index of indexes) {
    const numeric = `${index.attribute.type === 'number' ? 'a' : ''}${index.scope?.type === 'number' ? 's' : ''}`;
    args.push(scriptKind(index), index.attribute.field, index.scope?.field ?? '', numeric);
  }
}

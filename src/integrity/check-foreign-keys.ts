import { Findings } from './findings';
import { ModelScope, relatedScope } from './model-scope';
import { raw, unlessWrongType } from './raw-commands';
import { scoresIn } from './batched-reads';

/**
 * Invariant 6 from the children's side: each foreign key of a batch of live objects names a live parent (its
 * hash names itself, and it is in `all`, or it is an orphan hash its own model's repair lists again).
 */
export async function checkForeignKeys(
  scope: ModelScope,
  findings: Findings,
  objects: Array<[string, Map<string, string>]>,
): Promise<void> {
  const client = raw(scope.client);
  for (const relation of scope.definition.relations) {
    if (relation.kind !== 'belongsTo') continue;
    const parent = relatedScope(scope, relation.target);
    if (!parent) continue;
    const pointing = objects.filter(([, values]) => values.has(relation.foreignKey));
    const parentIds = pointing.map(([, values]) => values.get(relation.foreignKey)!);
    const [ownIds, listed] = await Promise.all([
      // a key of another type is no parent
      Promise.all(parentIds.map((parentId) => unlessWrongType(client.hGet(parent.keys.object(parentId), '#id'), null))),
      scoresIn(client, parent.keys.all, parentIds),
    ]);
    // a parent whose hash fell out of `all` but names itself (#id) is the parent model's orphanHash, which its
    // repair lists again: the foreign key still names it, and is not reported (nor nullified) here
    const alive = parentIds.map(
      (parentId, i) => ownIds[i] !== null && ownIds[i] !== undefined && (listed[i] !== null || ownIds[i] === parentId),
    );
    pointing.forEach(([id, values], i) => {
      if (alive[i]) return;
      const parentId = values.get(relation.foreignKey)!;
      findings.add(
        'danglingForeignKey',
        { id, key: scope.keys.object(id) },
        `${relation.foreignKey} ${parentId} names no live ${relation.target}`,
        {
          type: 'foreignKey',
          id,
          foreignKey: relation.foreignKey,
          parent,
          parentId,
        },
      );
    });
  }
}

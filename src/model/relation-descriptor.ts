/** What deleting a parent does to the objects that belong to it. */
export type OnDelete = 'restrict' | 'cascade' | 'nullify';

/**
 * - belongsTo:  the object holds its parent's id in an indexed attribute (`<property>Id`).
 * - hasMany:    the parent side of a belongsTo (`inverse` names it); decides onDelete.
 * - manyToMany: membership sets on both sides, `<base>:rel:<property>:<id>` and, on the other side, the
 *               inverse's own set or `<otherBase>:rev:<Model>.<property>:<otherId>`. An `ordered` side's own
 *               key is a sorted set whose scores are the members' positions (docs/design/collections.md).
 */
export type RelationDescriptor =
  | { readonly kind: 'belongsTo'; readonly property: string; readonly target: () => Function; readonly foreignKey: string }
  | {
      readonly kind: 'hasMany';
      readonly property: string;
      readonly target: () => Function;
      readonly inverse: string;
      readonly onDelete: OnDelete;
    }
  | {
      readonly kind: 'manyToMany';
      readonly property: string;
      readonly target: () => Function;
      readonly inverse?: string;
      readonly ordered: boolean;
    };

/** Lifecycle hooks, in the order a save runs them (see docs/validation-and-hooks.md). */
export type HookKind =
  | 'beforeValidate'
  | 'beforeSave'
  | 'beforeCreate'
  | 'beforeUpdate'
  | 'afterCreate'
  | 'afterUpdate'
  | 'afterSave'
  | 'beforeRemove'
  | 'afterRemove'
  | 'afterLoad';

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

/** The decorator that declares a hook of this kind, for error messages: `@BeforeSave` for 'beforeSave'. */
export function hookDecorator(kind: HookKind): string {
  return `@${kind[0].toUpperCase()}${kind.slice(1)}`;
}

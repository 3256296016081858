import type { SaveManyItem } from './bulk-types';
import type { AttributeName } from './entity-types';

/**
 * The keys of an item `E` that are no attribute of `T` and that the item is sure to hold: required ones (a
 * literal's `id: '1'` or `save: undefined`), not optional ones (a `Partial<Post>` has `id?` and `save?` and
 * may hold none of them), and not functions (the methods of a class of the caller's own, on its prototype,
 * which saveMany does not read). None for an instance of the model (also a frozen one, which Object.freeze
 * types as `Readonly<Post>`); for a union, those of each of its members.
 */
type KeysNotAttributes<T, E> =
  E extends Readonly<T>
    ? never
    : {
        [K in keyof E]-?: K extends AttributeName<T>
          ? never
          : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- true exactly when K is optional in E
            {} extends Pick<E, K>
            ? never
            : E[K] extends (...args: never[]) => unknown
              ? never
              : K;
      }[keyof E];

/** What the compiler names when it refuses an item of saveMany: the keys of the item that are not attributes. */
interface NotAttributes<K> {
  readonly 'keys that are not attributes of the model': K;
}

/**
 * One item as given when it holds no key that is not an attribute, else the item joined with NotAttributes, a
 * property no item has, so that it fails to compile with those keys named. A model whose attributes the compiler
 * does not know (one known only as BaseEntity: the `this` of a caller generic over its model, through `typeof
 * BaseEntity`) has its items taken as given, held to SaveManyItem alone.
 */
type CheckedItem<T, E> = [AttributeName<T>] extends [never]
  ? E
  : [KeysNotAttributes<T, E>] extends [never]
    ? E
    : E & NotAttributes<KeysNotAttributes<T, E>>;

/**
 * What `saveMany` accepts: a list (an array, a readonly one, a tuple) of SaveManyItem, each item checked on
 * its own (an array literal is read as a tuple, one type per item). The items' type alone, a union of the
 * model and its attributes, lets an object literal hold any key of either, since the compiler checks a
 * literal's keys against a union as a whole: a literal with an `id`, a method's name or a relation's compiled,
 * and failed with a ValidationError. Checked item by item, such keys are refused, as build() and create()
 * refuse them, while a `Partial<Post>` (whose keys are all optional) and instances of the model still pass,
 * mixed in one list.
 */
export type SaveManyItems<T, Items extends ReadonlyArray<SaveManyItem<T>>> = {
  [N in keyof Items]: CheckedItem<T, Items[N]>;
};

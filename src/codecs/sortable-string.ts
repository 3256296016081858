/** The brand of SortableString; where-types.ts reads it to tell a sortable string from any string. */
export declare const sortableBrand: unique symbol;

/**
 * A string attribute kept in lexicographic order (`@Index({ sortable: true })`). Any string can be assigned to
 * it; declaring the attribute with this type is what lets range operators, startsWith and orderBy on it compile.
 */
export type SortableString = string & {
  /** @hidden */
  readonly [sortableBrand]?: true;
};

/**
 * The runtime side of the type of the same name, so that an attribute declared `SortableString` is read as a
 * string by every compiler. tsc, which sees the whole program, emits `String` as its `design:type`; a compiler
 * that transpiles each file alone (`isolatedModules`, `ts-node --transpile-only`, esbuild, swc) cannot see
 * through an imported type and emits the value of that name where there is one (else `Object`): this function,
 * which `@Attr` reads as `String`. Called, it returns its argument, typed as a SortableString.
 */
export function SortableString(value: string): SortableString {
  return value;
}

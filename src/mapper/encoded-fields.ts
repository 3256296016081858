/** An object's attributes as stored: hash field -> encoded string. Absent attributes have no entry. */
export type EncodedFields = Map<string, string>;

/** One stored field read by name: from EncodedFields, or from a new object's HSET arguments (hset-args.ts). */
export interface FieldLookup {
  get(field: string): string | undefined;
}

/** Where encodeAttributes writes the fields it encodes: EncodedFields, or a new object's HSET arguments. */
export interface FieldSink extends FieldLookup {
  set(field: string, value: string): unknown;
}

/** An object's attributes as stored: hash field -> encoded string. Absent attributes have no entry. */
export type EncodedFields = Map<string, string>;

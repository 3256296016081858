import { Codec } from '../codecs/codec';
import { StoredType } from '../codecs/attribute-type';

/** One persisted attribute of a model: the property, the hash field it lives in, and how it is encoded. */
export interface AttributeDescriptor {
  readonly property: string;
  /** The hash field. Equal to the property name: names are JS identifiers, so they never clash with internal `#` fields. */
  readonly field: string;
  readonly type: StoredType;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the attribute's own value type, unknown here
  readonly codec: Codec<any>;
  /** `counter`: changed only by increment() (written by save() on create only); `version`: optimistic lock. */
  readonly role?: 'counter' | 'version';
  /** `@Computed()`: the value of a getter, stored at each write and never assigned (read-only). */
  readonly computed?: true;
}

import 'reflect-metadata';
import { Codec } from '../codecs/codec';
import { AttributeType } from '../codecs/attribute-type';
import { checkAttributeName } from '../metadata/attribute-name';
import { addPendingAttribute } from '../metadata/pending-metadata';

export interface AttrOptions {
  /** The stored type; inferred from the declared TypeScript type, or the default value, for string, number, boolean and Date. */
  type?: AttributeType;
  /** Custom serialization: `encode` to a string, `decode` back. Replaces `type`. */
  codec?: Codec<any>;
}

/** Marks a property as a persisted attribute; `@Model` resolves its type when the class is defined. */
export function Attr(options: AttrOptions = {}): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    checkAttributeName('@Attr', target, property);
    const designType: unknown = Reflect.getMetadata('design:type', target, property);
    addPendingAttribute(target, { property, owner: target.constructor.name, designType, options, declaredBy: '@Attr' });
  };
}

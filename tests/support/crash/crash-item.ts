import { Attr, BaseEntity, Model } from '../../../src';

/**
 * The model the crash test hammers. Every attribute names its type explicitly, so the worker also runs
 * under a transpile-only loader (which emits no reliable decorator type metadata).
 */
@Model()
export class CrashItem extends BaseEntity {
  @Attr({ type: 'string' }) name?: string;
  @Attr({ type: 'number' }) count?: number;
  @Attr({ type: 'boolean' }) flag?: boolean;
  @Attr({ type: 'string' }) note?: string;
  @Attr({ type: 'json' }) data?: { tags: string[]; n: number };
}

/** The attributes as compared by the crash test: toJSON without the id, in declaration order. */
export function stateOfItem(item: CrashItem): string {
  const { id: _id, ...attributes } = item.toJSON();
  return JSON.stringify(attributes);
}

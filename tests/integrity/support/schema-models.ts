import { Attr, BaseEntity, Index, Model, SortableString, Unique } from '../../../src';

/**
 * Two versions of one model (same @Model name): a model name can be defined once per module registry, so
 * each version is loaded inside its own jest.isolateModules block, as two deployments of an application.
 */
export function defineVersionOne() {
  @Model({ name: 'SchemaNote' })
  class SchemaNote extends BaseEntity {
    @Attr() @Index() topic?: string;
    @Attr() title?: string;
    @Attr() email?: string;
    @Attr() @Index() colour?: string;
  }
  return SchemaNote;
}

export function defineVersionTwo() {
  @Model({ name: 'SchemaNote' })
  class SchemaNote extends BaseEntity {
    @Attr() @Index() topic?: string;
    @Attr() @Index({ sortable: true }) title?: SortableString;
    @Attr() @Unique({ caseInsensitive: true }) email?: string;
    @Attr() colour?: string;
  }
  return SchemaNote;
}

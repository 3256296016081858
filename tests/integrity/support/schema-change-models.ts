import { Attr, BaseEntity, Counter, Index, Model, Unique } from '../../../src';

/**
 * Models in two versions each (same @Model name): the version an application wrote its data with, then the
 * version it deploys. A model name can be defined once per module registry, so each version is loaded inside
 * its own jest.isolateModules block.
 */
export const versions = {
  capBefore() {
    @Model({ name: 'ChangeCap' })
    class ChangeCap extends BaseEntity {
      @Attr() @Index() score?: number;
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeCap;
  },
  capAfter() {
    @Model({ name: 'ChangeCap', cap: { by: 'score', keep: 3 } })
    class ChangeCap extends BaseEntity {
      @Attr() @Index() score?: number;
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeCap;
  },
  counterBefore() {
    @Model({ name: 'ChangeCounter' })
    class ChangeCounter extends BaseEntity {
      @Counter() @Index() points = 0;
      @Attr() @Index() level?: string;
    }
    return ChangeCounter;
  },
  counterAfter() {
    @Model({ name: 'ChangeCounter', cap: { by: 'points', keep: 2 } })
    class ChangeCounter extends BaseEntity {
      @Counter() @Index() points = 0;
      @Attr() @Index() level?: string;
    }
    return ChangeCounter;
  },
  ttlBefore() {
    @Model({ name: 'ChangeTtl' })
    class ChangeTtl extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeTtl;
  },
  ttlAfter() {
    @Model({ name: 'ChangeTtl', ttl: 3600 })
    class ChangeTtl extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeTtl;
  },
  ttlLonger() {
    @Model({ name: 'ChangeTtl', ttl: 7200 })
    class ChangeTtl extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeTtl;
  },
  ttlIndexed() {
    @Model({ name: 'ChangeTtl', ttl: 3600 })
    class ChangeTtl extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() @Unique() code?: string;
      @Attr() @Index() rank?: number;
    }
    return ChangeTtl;
  },
  uniqueBefore() {
    @Model({ name: 'ChangeUnique' })
    class ChangeUnique extends BaseEntity {
      @Attr() code?: string;
    }
    return ChangeUnique;
  },
  uniqueAfter() {
    @Model({ name: 'ChangeUnique' })
    class ChangeUnique extends BaseEntity {
      @Attr() @Unique() code?: string;
    }
    return ChangeUnique;
  },
  uuidUniqueBefore() {
    @Model({ name: 'ChangeUuidUnique', idStrategy: 'uuid' })
    class ChangeUuidUnique extends BaseEntity {
      @Attr() code?: string;
    }
    return ChangeUuidUnique;
  },
  uuidUniqueAfter() {
    @Model({ name: 'ChangeUuidUnique', idStrategy: 'uuid' })
    class ChangeUuidUnique extends BaseEntity {
      @Attr() @Unique() code?: string;
    }
    return ChangeUuidUnique;
  },
  shardedUniqueBefore() {
    @Model({ name: 'ChangeShardedUnique', shards: 4 })
    class ChangeShardedUnique extends BaseEntity {
      @Attr() code?: string;
    }
    return ChangeShardedUnique;
  },
  shardedUniqueAfter() {
    @Model({ name: 'ChangeShardedUnique', shards: 4 })
    class ChangeShardedUnique extends BaseEntity {
      @Attr() @Unique() code?: string;
    }
    return ChangeShardedUnique;
  },
  expirableBefore() {
    @Model({ name: 'ChangeExpirable', expirable: true })
    class ChangeExpirable extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() @Index() colour?: string;
      @Attr() code?: string;
    }
    return ChangeExpirable;
  },
  expirableAfter() {
    @Model({ name: 'ChangeExpirable', expirable: true })
    class ChangeExpirable extends BaseEntity {
      @Attr() @Index() level?: string;
      @Attr() colour?: string;
      @Attr() @Index() code?: string;
    }
    return ChangeExpirable;
  },
  groupBefore() {
    @Model({ name: 'ChangeGroup' })
    class ChangeGroup extends BaseEntity {
      @Attr() @Index() level?: string;
    }
    return ChangeGroup;
  },
  groupAfter() {
    @Model({ name: 'ChangeGroup', group: 'changes' })
    class ChangeGroup extends BaseEntity {
      @Attr() @Index() level?: string;
    }
    return ChangeGroup;
  },
  staleBefore() {
    @Model({ name: 'ChangeStale' })
    class ChangeStale extends BaseEntity {
      @Attr() @Index() colour?: string;
      @Attr() @Unique() code?: string;
    }
    return ChangeStale;
  },
  staleAfter() {
    @Model({ name: 'ChangeStale' })
    class ChangeStale extends BaseEntity {
      @Attr() colour?: string;
      @Attr() code?: string;
    }
    return ChangeStale;
  },
};

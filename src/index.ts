import 'reflect-metadata';

export { connect, disconnect } from './connect/connect';
export { Connection } from './redis/connection';
export type { ConnectOptions } from './connect/connect';
export { Model } from './decorators/model';
export { Attr } from './decorators/attr';
export { Computed } from './decorators/computed';
export type { ComputedOptions, ComputedDecorator } from './decorators/computed';
export type { AttrOptions, CodecAttrDecorator, TypedAttrDecorator } from './decorators/attr';
export type {
  FieldDecorator,
  FieldOrGetterDecorator,
  NotAMethod,
  HookMethodDecorator,
  ModelDecorator,
  NamesProperties,
} from './decorators/decorator-types';
export { Index, Unique } from './decorators/indexes';
export { Counter, Version, DynamicAttrs } from './decorators/roles';
export type { DynamicAttrsDecorator, NumberAttrDecorator } from './decorators/roles';
export { BelongsTo, HasMany, ManyToMany } from './decorators/relations';
export type { OrderedManyToMany } from './decorators/relations';
export type { BelongsToOptions, HasManyDecorator, HasManyOptions, ManyToManyOptions, RelationDecorator } from './decorators/relations';
export type { BelongsToHandle } from './relations/belongs-to-handle';
export type { HasManyHandle } from './relations/has-many-handle';
export type { ManyToManyHandle } from './relations/many-to-many-handle';
export type { OrderedManyToManyHandle } from './relations/ordered-many-to-many-handle';
export type { ListOptions } from './types/relation-handle';
export type { OnDelete } from './model/relation-descriptor';
export type { LockOptions } from './entity/locking';
export type { CapOptions } from './model/model-descriptor';
export type { CompositeUniqueDecorator, IndexOptions, StringAttrDecorator, UniqueOptions } from './decorators/indexes';
export {
  BeforeValidate,
  BeforeSave,
  BeforeCreate,
  BeforeUpdate,
  AfterCreate,
  AfterUpdate,
  AfterSave,
  BeforeRemove,
  AfterRemove,
  AfterLoad,
} from './decorators/hooks';
export { BaseEntity } from './entity/base-entity';
export { transaction } from './entity/transaction/transaction';
export type { Transaction } from './entity/transaction/transaction';
export {
  RedisRecordError,
  ArgumentError,
  ValidationError,
  NotFoundError,
  SchemaError,
  ConnectionError,
  InvalidIdError,
  DecodeError,
  UniqueConstraintError,
  QueryError,
  StaleObjectError,
  LockTimeoutError,
  RelationError,
  ReplicationError,
  CrossSlotError,
  WrongTypeError,
  RemovedEntityError,
  TransactionRefusedError,
} from './errors/errors';
export { CommandError, OutcomeUnknownError, TransactionError } from './errors/command-errors';
export type { AttributeFailure } from './errors/attribute-failure';
export type { Codec } from './codecs/codec';
export { CodecError } from './codecs/codec';
export type { AttributeType } from './codecs/attribute-type';
export type { ModelOptions, IdStrategy } from './model/model-descriptor';
export type { ReplicaOptions } from './model/replica-policy';
export type {
  AttributeName,
  WritableName,
  AttributeInput,
  CounterName,
  Persisted,
  EntityClass,
  SaveOptions,
  CreateOptions,
} from './types/entity-types';
export type {
  AddToSetInput,
  ArrayOperatorInput,
  PullInput,
  PushInput,
  UpdateInput,
  UpdateOptions,
  UpsertOptions,
  UpsertResult,
} from './types/write-types';
export type {
  SaveManyItem,
  SaveManyOptions,
  SaveManyResult,
  SaveManyFailure,
  FindManyOptions,
  RemoveManyOptions,
  RemoveManyResult,
  RemoveByOptions,
  RemoveManyFailure,
} from './types/bulk-types';
export type {
  Where,
  Condition,
  RangeOperators,
  InOperator,
  StartsWithOperator,
  TagOperators,
  OrderBy,
  FindOptions,
  FindIdsOptions,
  FindOneOptions,
  FindPageOptions,
  RankOptions,
  Page,
  FacetName,
  IterateOptions,
  OrderableName,
  IncludableName,
  Direction,
} from './types/where-types';
export { SortableString } from './codecs/sortable-string';
export type { SchemaStatus } from './schema/schema-status';
export type { StoredDefinition, StoredAttribute, StoredIndex, StoredRelation } from './schema/stored-definition';
export type { CheckResult, RepairResult, Violation, ViolationKind, IntegrityOptions } from './integrity/violations';
export type { ReindexResult } from './integrity/reindex-model';
// Types the public API refers to, exported so that the API reference documents them.
export type { ClusterOptions } from './redis/node-redis/open-cluster';
export type { Transport, ServerNode, Command, Argument, SendOptions } from './redis/transport';
export type { HookDecorator } from './decorators/hooks';
export type { ModelKeys } from './keys/model-keys';
export type { StoredType } from './codecs/attribute-type';
export type { IndexKind } from './model/index-descriptor';
export type { RelationHandle } from './relations/relation-handle';
export type { InstantiableModel } from './entity/base-entity';
export type { RelationTarget } from './decorators/relations';
export type { SaveManyItems } from './types/save-many-items';
export type { NoRanges, NoStartsWith } from './types/where-types';
export type { IsReadonly } from './types/entity-types';
export type {
  EachAttrDecorator,
  DeclaredAsStringArray,
  Mismatch,
  CompoundIndexDecorator,
  CompoundPartValue,
  CompoundParts,
  CompoundMismatch,
  EachMismatch,
} from './decorators/indexes';

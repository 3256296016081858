import 'reflect-metadata';
import { BelongsTo, Model } from '../../src';
import { SuitePost } from './redis-record-peer';

/**
 * SuitePost with a foreign key it never sets: the very same writes (the hash, `all`, the topic and createdAt
 * entries), but its creates take save-many.lua, as those of every model with a unique attribute or a foreign key
 * do (docs/bulk-operations.md, "How the writes are sent"). For benchmarks that set that path beside the MULTI.
 */
@Model({ name: 'ScriptedPost' })
export class ScriptedPost extends SuitePost {
  @BelongsTo(() => SuitePost) origin!: BelongsTo<SuitePost>;
}

import { createClient } from 'redis';
import { AfterSave, ArgumentError, Attr, BaseEntity, connect, disconnect, Model, ReplicationError } from '../../src';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';

/**
 * waitReplicas in bulk: saveMany and removeMany wait as save() and remove() do, with one WAIT per node for the
 * whole call. On a master with a real replica: while the replica acknowledges, the calls succeed and the
 * replica holds what they wrote; while it is stopped (SIGSTOP), every item written is reported as written but
 * failed, with a ReplicationError, and the writes stand.
 */

const afterSave: string[] = [];

@Model({ name: 'MirroredNote', waitReplicas: 1, waitTimeoutMs: 300 })
class MirroredNote extends BaseEntity {
  @Attr() text!: string;

  @AfterSave() record(): void {
    afterSave.push(this.text);
  }
}

// the replica acknowledging: a budget that holds on a loaded machine (WAIT returns as soon as it acknowledges)
@Model({ name: 'AckedNote', waitReplicas: 1, waitTimeoutMs: 60_000 })
class AckedNote extends BaseEntity {
  @Attr() text!: string;
}

@Model({ name: 'UnmirroredNote' })
class UnmirroredNote extends BaseEntity {
  @Attr() text!: string;
}

let master: PrivateRedis;
let replica: PrivateRedis;
let replicaClient: ReturnType<typeof createClient>;
let masterClient: ReturnType<typeof createClient>;

beforeAll(async () => {
  master = await startPrivateRedis();
  replica = await startPrivateRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  masterClient = createClient({ url: master.url });
  replicaClient = createClient({ url: replica.url });
  await Promise.all([masterClient.connect(), replicaClient.connect()]);
  for (let i = 0; !/master_link_status:up/.test(await replicaClient.info('replication')); i++) {
    if (i > 200) throw new Error('the replica did not connect to its master');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await connect({ url: master.url, prefix: 'bulk-replicas' });
});

afterAll(async () => {
  replica.process.kill('SIGCONT');
  await disconnect();
  await Promise.all([masterClient.quit(), replicaClient.quit()]);
  await Promise.all([replica.stop(), master.stop()]);
});

/** Runs `work` with the replica stopped: it takes no part in replication until it is continued. */
async function withReplicaStopped<T>(work: () => Promise<T>): Promise<T> {
  replica.process.kill('SIGSTOP');
  try {
    return await work();
  } finally {
    replica.process.kill('SIGCONT');
  }
}

it('with a replica acknowledging, saveMany and removeMany succeed and the replica holds their writes', async () => {
  const created = await AckedNote.saveMany([{ text: 'one' }, { text: 'two' }]);
  expect(created.ok).toBe(true);
  const loaded = await AckedNote.findMany(created.saved.map((note) => note.id));
  loaded.forEach((note) => (note!.text += '!'));
  expect((await AckedNote.saveMany(loaded.map((note) => note!))).ok).toBe(true);
  // WAIT answered: the replica has applied everything the connection wrote, without any wait here
  expect(await replicaClient.dbSize()).toBe(await masterClient.dbSize());
  expect(await replicaClient.hGet(`bulk-replicas:{AckedNote}:obj:${created.saved[0].id}`, 'text')).toBe('one!');
  const removal = await AckedNote.removeMany(created.saved.map((note) => note.id));
  expect(removal).toEqual({ ok: true, removed: created.saved.map((note) => note.id), missing: [], failed: [] });
  expect(await replicaClient.exists(`bulk-replicas:{AckedNote}:obj:${created.saved[0].id}`)).toBe(0);
});

it('with the replica stopped, each item written is a failure with written: true and a ReplicationError; the writes stand', async () => {
  const stored = await MirroredNote.create({ text: 'stored' }, { waitTimeoutMs: 60_000 }); // acknowledged: not part of the test
  const loaded = (await MirroredNote.find(stored.id))!;
  loaded.text = 'changed';
  afterSave.length = 0;
  const result = await withReplicaStopped(() => MirroredNote.saveMany([{ text: 'new' }, loaded, { text: 'other', extra: 1 } as never]));
  expect(result.ok).toBe(false);
  expect(result.saved).toEqual([]);
  expect(result.failed.map((failure) => [failure.index, failure.error.constructor.name, failure.written])).toEqual([
    [0, 'ReplicationError', true],
    [1, 'ReplicationError', true],
    [2, 'ValidationError', false],
  ]);
  const [onCreate, onUpdate] = result.failed.map((failure) => failure.error as ReplicationError);
  expect(onCreate.message).toMatch(/: create acknowledged by 0 of 1 replica within 300 ms; the write is applied on the master/);
  expect([onUpdate.operation, onUpdate.id, onUpdate.wanted, onUpdate.acknowledged]).toEqual(['save', stored.id, 1, 0]);
  // as save(): the after-hooks ran, the objects are stored and the instances persisted
  expect(afterSave).toEqual(['new', 'changed']);
  expect((await MirroredNote.find(stored.id))!.text).toBe('changed');
  expect(result.failed[0].entity!.isPersisted()).toBe(true);

  // a model without waitReplicas, and a call that turns it off, do not wait
  expect((await withReplicaStopped(() => UnmirroredNote.saveMany([{ text: 'plain' }]))).ok).toBe(true);
  expect((await withReplicaStopped(() => MirroredNote.saveMany([{ text: 'unwaited' }], { waitReplicas: 0 }))).ok).toBe(true);

  const ids = [stored.id, result.failed[0].entity!.id!, '999999'];
  const removal = await withReplicaStopped(() => MirroredNote.removeMany(ids));
  expect(removal.removed).toEqual([]);
  expect(removal.missing).toEqual(['999999']);
  expect(removal.failed.map((failure) => [failure.id, failure.error.constructor.name, failure.removed])).toEqual([
    [stored.id, 'ReplicationError', true],
    [ids[1], 'ReplicationError', true],
  ]);
  expect((removal.failed[0].error as ReplicationError).operation).toBe('remove');
  expect(await MirroredNote.exists(stored.id)).toBe(false);
});

it('refuses bad waitReplicas options of saveMany with ArgumentError before anything is written', async () => {
  const count = await UnmirroredNote.count();
  await expect(UnmirroredNote.saveMany([{ text: 'x' }], { waitReplicas: -1 })).rejects.toThrow(ArgumentError);
  await expect(UnmirroredNote.saveMany([{ text: 'x' }], { waitTimeoutMs: 0 })).rejects.toThrow(/waitTimeoutMs must be a whole number/);
  expect(await UnmirroredNote.count()).toBe(count);
});

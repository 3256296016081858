import { createClient } from 'redis';
import type * as Library from '../../src';
import type * as SchemaModels from './support/schema-models';
import { keysUnder, RawClient, uniquePrefix } from '../support/test-redis';
import type * as IndexConsistency from '../support/index-consistency';

/**
 * Stored definitions, schemaStatus() and reindex(): version one of a model writes data, version two (same
 * model name, an index added, one made unique, one dropped) connects to it. Each version lives in its own
 * module registry (jest.isolateModules), like two deployments of an application, each with its connection.
 */

type Deployment = {
  lib: typeof Library;
  consistency: typeof IndexConsistency;
  Note: ReturnType<typeof SchemaModels.defineVersionOne> & ReturnType<typeof SchemaModels.defineVersionTwo>;
};

const deployments: Deployment[] = [];

function deploy(version: 1 | 2): Deployment {
  let deployment!: Deployment;
  jest.isolateModules(() => {
    const lib = require('../../src') as typeof Library;
    const models = require('./support/schema-models') as typeof SchemaModels;
    const Note = (version === 1 ? models.defineVersionOne() : models.defineVersionTwo()) as Deployment['Note'];
    // The test-side checker too, so that it reads this registry's model definitions.
    const consistency = require('../support/index-consistency') as typeof IndexConsistency;
    deployment = { lib, consistency, Note };
  });
  deployments.push(deployment);
  return deployment;
}

const prefix = uniquePrefix('schema');
let raw: RawClient;
const base = `${prefix}:{SchemaNote}`;

beforeAll(async () => {
  raw = createClient({ url: process.env.REDIS_URL });
  await raw.connect();
});

afterAll(async () => {
  for (const { lib } of deployments) await lib.disconnect();
  const keys = [...(await keysUnder(raw, prefix)), `${prefix}#models`];
  await raw.del(keys);
  await raw.close();
});

it('stores the definition at first use, reports changed indexes once, and reindex() builds and drops them', async () => {
  const one = deploy(1);
  await one.lib.connect({ url: process.env.REDIS_URL, prefix });
  for (let i = 1; i <= 5; i++)
    await one.Note.create({ topic: 't', title: `note ${6 - i}`, email: `User${i}@X.io`, colour: i % 2 ? 'red' : 'blue' } as never);
  await one.Note.scope('acme').create({ topic: 't', title: 'acme note', email: 'A@acme.io', colour: 'red' } as never);
  const stored = JSON.parse((await raw.hGet(`${prefix}#models`, 'SchemaNote'))!);
  expect(stored).toMatchObject({ name: 'SchemaNote', group: null, idStrategy: 'sequence', ttlMs: null, cap: null });
  expect(stored.indexes).toEqual([
    { kind: 'set', attribute: 'topic', scope: null, caseInsensitive: false },
    { kind: 'set', attribute: 'colour', scope: null, caseInsensitive: false },
  ]);
  expect(stored.attributes).toContainEqual({ property: 'title', field: 'title', type: 'string', role: null });
  expect(stored.hash).toMatch(/^[0-9a-f]{40}$/);
  expect((await one.Note.schemaStatus()).needsReindex).toBe(false);
  await one.lib.disconnect();

  const two = deploy(2);
  const changes: Library.SchemaStatus[] = [];
  await two.lib.connect({ url: process.env.REDIS_URL, prefix, onSchemaChange: (status) => changes.push(status) });
  await two.Note.count();
  await two.Note.find('1');
  expect(changes).toHaveLength(1);
  expect(changes[0]).toMatchObject({ added: ['lex:title', 'unique:email/ci'], dropped: ['set:colour'], needsReindex: true });
  const status = await two.Note.schemaStatus();
  expect(status).toMatchObject({ added: ['lex:title', 'unique:email/ci'], dropped: ['set:colour'], needsReindex: true });
  // kept, its dropped index named stale: this connection's writes do not maintain it
  expect(status.stored!.indexes).toEqual(stored.indexes);
  expect(status.stored!.stale).toEqual(['set:colour']);

  // Until reindex(), the data lacks the new entries and holds the dropped index's keys: check() says so.
  const before = await two.Note.check();
  const kinds = new Set(before.violations.map((v) => v.kind));
  expect([...kinds].sort()).toEqual(['missingEntry', 'unknownKey', 'wrongEntry']); // wrongEntry: #ci: fields not written yet

  const result = await two.Note.reindex();
  expect(result).toMatchObject({ added: ['lex:title', 'unique:email/ci'], dropped: ['set:colour'], scopes: 2, objects: 6 });
  expect(result.keysDeleted).toBe(3); // red and blue, and acme's red
  expect((await two.Note.check()).violations).toEqual([]);
  expect((await two.Note.scope('acme').check()).violations).toEqual([]);
  expect((await two.consistency.checkIndexConsistency(two.Note, raw, prefix)).violations).toEqual([]);
  expect((await two.Note.schemaStatus()).needsReindex).toBe(false);
  expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'SchemaNote'))!).hash).toBe(status.current.hash);
  expect((await keysUnder(raw, base)).filter((key) => key.includes(':idx:colour:'))).toEqual([]);
  expect(await raw.hGet(`${base}:uniq:email`, 'user3@x.io')).toBe('3');
  const ordered = await two.Note.findBy({}, { orderBy: { title: 'asc' } as never });
  expect(ordered.map((n) => n.title)).toEqual(['note 1', 'note 2', 'note 3', 'note 4', 'note 5']);
  await expect(two.Note.create({ email: 'USER1@x.io' } as never)).rejects.toBeInstanceOf(two.lib.UniqueConstraintError);
  await two.lib.disconnect();

  // An older deployment connecting now is told, by default with one console.warn line.
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const old = deploy(1);
    await old.lib.connect({ url: process.env.REDIS_URL, prefix });
    await old.Note.count();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe(
      'redis-record: model SchemaNote has indexes that differ from its stored definition (added set:colour; dropped lex:title, unique:email/ci): run SchemaNote.reindex()',
    );
    await old.lib.disconnect();
    // it records the indexes it does not maintain; the next deployment declaring them is told to rebuild them
    expect(JSON.parse((await raw.hGet(`${prefix}#models`, 'SchemaNote'))!).stale).toEqual(['lex:title', 'unique:email/ci']);
    const newer = deploy(2);
    await newer.lib.connect({ url: process.env.REDIS_URL, prefix });
    await newer.Note.count();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1][0]).toBe(
      'redis-record: model SchemaNote has indexes that differ from its stored definition (stale lex:title, unique:email/ci): run SchemaNote.reindex()',
    );
    expect((await newer.Note.reindex()).rebuilt).toEqual(['lex:title', 'unique:email/ci']);
    expect((await newer.Note.check()).violations).toEqual([]);
    await newer.lib.disconnect();
  } finally {
    warn.mockRestore();
  }
});

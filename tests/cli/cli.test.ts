import { readFileSync } from 'fs';
import { join } from 'path';
import { createClient } from 'redis';
import { ArgumentError, Attr, BaseEntity, Index, ManyToMany, Model, SortableString, Unique } from '../../src';
import {
  checkScopeNames,
  countObjects,
  findTenants,
  modelScope,
  readStoredDefinitions,
  redactSecrets,
  redactUrl,
  storedPrefixes,
} from '../../src/admin';
import { startPrivateRedis } from '../../tools/private-redis';
import { keysUnder, useTestRedis } from '../support/test-redis';
import { useCli } from './run-cli';

/**
 * The command-line tool, run as a child process against data written by the library: it works from the
 * definitions stored in Redis alone (the models below exist in this process only).
 */

@Model()
@Unique(['country', 'age'])
class CliUser extends BaseEntity {
  @Attr() @Unique({ caseInsensitive: true }) email?: string;
  @Attr() @Index() country?: string;
  @Attr() @Index() age?: number;
  @Attr() @Index({ sortable: true }) name?: SortableString;
  @Attr() active?: boolean;
  @Attr() born?: Date;
  @Attr({ type: 'json' }) tags?: string[];
}

@Model({ ttl: 1 })
class CliLog extends BaseEntity {
  @Attr() @Index() level?: string;
}

@Model({ cap: { by: 'at', keep: 10, per: 'userId' } })
class CliLogin extends BaseEntity {
  @Attr() userId?: string;
  @Attr() @Index({ scope: 'userId' }) at?: number;
}

/** A one-sided many-to-many: a book's side of a shelf's membership is a `rev:` set under the book's base. */
@Model({ group: 'clishelf' })
class CliBook extends BaseEntity {
  @Attr() title?: string;
}

@Model({ group: 'clishelf' })
class CliShelf extends BaseEntity {
  @Attr() name?: string;
  @ManyToMany(() => CliBook) books!: ManyToMany<CliBook>;
}

const redis = useTestRedis();
const cli = useCli(redis.prefix);
const p = () => ['--prefix', redis.prefix];
const base = () => `${redis.prefix}:{CliUser}`;

beforeAll(async () => {
  await CliUser.create({
    email: 'Ann@Example.com',
    country: 'NO',
    age: 31,
    name: 'Ann' as SortableString,
    active: true,
    born: new Date('1994-03-01T00:00:00Z'),
    tags: ['a'],
  });
  await CliUser.create({ email: 'bob@example.com', country: 'SE', age: 40, name: 'Bob' as SortableString, active: false });
  await CliUser.create({ email: 'cy@example.com', country: 'NO', age: 25, name: 'Cy' as SortableString });
  await CliUser.scope('acme').create({ email: 'dee@acme.io', country: 'DK', age: 50 });
});

afterAll(async () => {
  const raw = createClient({ url: process.env.REDIS_URL });
  await raw.connect();
  await raw.del(`${redis.prefix}#models`);
  await raw.close();
});

describe('models', () => {
  it('lists every stored model with its tenants and live objects', async () => {
    await CliLog.count(); // stores CliLog's definition
    await CliLogin.create({ userId: 'u1', at: 1 });
    const { code, stdout } = await cli.run(['models', ...p()]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^MODEL\s+GROUP\s+CAP\s+OBJECTS\s+TENANTS$/m);
    expect(stdout).toMatch(/^CliUser\s+-\s+-\s+4\s+acme$/m);
    expect(stdout).toMatch(/^CliLog\s+-\s+-\s+0\s+-$/m);
    expect(stdout).toMatch(/^CliLogin\s+-\s+keep 10 by at desc per userId\s+1\s+-$/m);
    const { data } = await cli.json(['models', ...p()]);
    const login = data.models.find((m: { model: string }) => m.model === 'CliLogin');
    expect(login.cap).toEqual({ by: 'at', keep: 10, order: 'desc', per: 'userId' });
    const user = data.models.find((m: { model: string }) => m.model === 'CliUser');
    expect(user).toMatchObject({
      cap: null,
      objects: 4,
      tenants: ['acme'],
      scopes: [
        { tenant: null, objects: 3 },
        { tenant: 'acme', objects: 1 },
      ],
    });
  });

  it('with --tenant, counts that tenant only', async () => {
    const { data } = await cli.json(['models', ...p(), '--tenant', 'acme']);
    expect(data.models.find((m: { model: string }) => m.model === 'CliUser')).toMatchObject({ objects: 1, tenants: ['acme'] });
  });

  it('with --tenant of a tenant holding no data of a model, lists no tenant for it', async () => {
    const { data } = await cli.json(['models', ...p(), '--tenant', 'nobody']);
    expect(data.models.find((m: { model: string }) => m.model === 'CliUser')).toMatchObject({
      objects: 0,
      tenants: [],
      scopes: [{ tenant: 'nobody', objects: 0 }],
    });
    const { stdout } = await cli.run(['models', ...p(), '--tenant', 'nobody']);
    expect(stdout).toMatch(/^CliUser\s+-\s+-\s+0\s+-$/m);
  });
});

describe('the admin functions the tool is built on', () => {
  it('read the prefixes, definitions, tenants and object counts a command starts from', async () => {
    expect(await storedPrefixes(redis.raw)).toContain(redis.prefix);
    const { definitions, unreadable } = await readStoredDefinitions(redis.raw, redis.prefix);
    expect(unreadable.size).toBe(0);
    const user = definitions.get('CliUser')!;
    expect(await findTenants(redis.raw, redis.prefix, user)).toEqual(['acme']);
    expect(await findTenants(redis.raw, redis.prefix, user, { tenant: 'nobody' })).toEqual([]);
    const scope = modelScope(redis.raw, redis.prefix, user, (name) => definitions.get(name), 'acme');
    expect(await countObjects(scope)).toEqual({ live: 1, expired: 0 });
  });

  it('checkScopeNames refuses a prefix or tenant that cannot name keys', () => {
    expect(() => checkScopeNames('app', 'acme')).not.toThrow();
    expect(() => checkScopeNames('a{b')).toThrow(ArgumentError);
    expect(() => checkScopeNames('app', 'a b')).toThrow(/invalid tenant "a b"/);
  });
});

describe('stats', () => {
  it('gives objects, memory and the keys and entries of each index', async () => {
    const { code, data } = await cli.json(['stats', 'CliUser', ...p()]);
    expect(code).toBe(0);
    expect(data.objects).toBe(4);
    expect(data.sampled).toBe(4);
    expect(data.objectBytes).toBeGreaterThan(0);
    const byName = Object.fromEntries(data.indexes.map((i: { index: string }) => [i.index, i]));
    expect(byName['set:country']).toMatchObject({ keys: 3, entries: 4 }); // NO, SE, and DK in the tenant
    expect(byName['score:age']).toMatchObject({ keys: 2, entries: 4 });
    expect(byName['lex:name']).toMatchObject({ keys: 2, entries: 4 }); // an absent name has its entry too
    expect(byName['unique:email/ci']).toMatchObject({ keys: 2, entries: 4 });
    expect(byName['unique:country+age']).toMatchObject({ keys: 2, entries: 4 }); // a composite unique
    expect(data.indexBytes).toBe(data.indexes.reduce((sum: number, i: { bytes: number }) => sum + i.bytes, 0));
    const table = await cli.run(['stats', 'CliUser', ...p()]);
    expect(table.stdout).toMatch(/^INDEX\s+KEYS\s+ENTRIES\s+MEMORY$/m);
    expect(table.stdout).toMatch(/^set:country\s+3\s+4\s+\d/m);
  });
});

describe('show', () => {
  it("lists the membership sets of an object, its side of another model's one-sided many-to-many too", async () => {
    const shelf = await CliShelf.create({ name: 'top' });
    const book = await CliBook.create({ title: 'b' });
    await shelf.books.add(book);
    const { data: ofShelf } = await cli.json(['show', 'CliShelf', shelf.id, ...p()]);
    expect(ofShelf.memberships).toEqual([{ key: `${redis.prefix}:{clishelf}:CliShelf:rel:books:${shelf.id}`, size: 1 }]);
    const { data: ofBook } = await cli.json(['show', 'CliBook', book.id, ...p()]);
    expect(ofBook.memberships).toEqual([{ key: `${redis.prefix}:{clishelf}:CliBook:rev:CliShelf.books:${book.id}`, size: 1 }]);
  });

  it('decodes attributes by their stored types and lists the index entries', async () => {
    const { code, data } = await cli.json(['show', 'CliUser', '1', ...p()]);
    expect(code).toBe(0);
    const values = Object.fromEntries(data.attributes.map((a: { property: string; value: unknown }) => [a.property, a.value]));
    expect(values).toEqual({
      email: 'Ann@Example.com',
      country: 'NO',
      age: 31,
      name: 'Ann',
      active: true,
      born: '1994-03-01T00:00:00.000Z',
      tags: ['a'],
    });
    expect(data.internal).toMatchObject({ '#id': '1', '#ci:email': 'ann@example.com' });
    expect(data.entries).toEqual(
      expect.arrayContaining([
        { index: 'set:country', key: `${base()}:idx:country:NO`, member: '1', present: true },
        { index: 'score:age', key: `${base()}:idx:age`, member: '1', score: 31, present: true },
        { index: 'lex:name', key: `${base()}:lex:name`, member: 'Ann', present: true },
        { index: 'unique:email/ci', key: `${base()}:uniq:email`, member: 'ann@example.com', present: true },
      ]),
    );
    const table = await cli.run(['show', 'CliUser', '1', ...p()]);
    expect(table.stdout).toMatch(/^born\s+date\s+1994-03-01T00:00:00.000Z$/m);
    expect(table.stdout).toMatch(/^set:country\s+\S+:idx:country:NO\s+1\s+yes$/m);
  });

  it('shows an object of a tenant with --tenant, and exits 2 for an id that names none', async () => {
    const { data } = await cli.json(['show', 'CliUser', '1', ...p(), '--tenant', 'acme']);
    expect(data.attributes.find((a: { property: string }) => a.property === 'email').value).toBe('dee@acme.io');
    const missing = await cli.run(['show', 'CliUser', '99', ...p()]);
    expect(missing.code).toBe(2);
    // printed as every message of the tool is: its name first, then the line
    expect(missing.stderr).toBe('redis-record: CliUser 99: no such object\n');
    const elsewhere = await cli.run(['show', 'CliUser', '99', ...p(), '--tenant', 'acme']);
    expect([elsewhere.code, elsewhere.stderr]).toEqual([2, 'redis-record: CliUser 99 in tenant acme: no such object\n']);
  });
});

describe('check and repair', () => {
  it('finds nothing in data the library wrote', async () => {
    const { code, stdout, stderr } = await cli.run(['check', ...p(), '--batch-size', '2']);
    expect(code).toBe(0);
    expect(stdout).toContain('ok: no violations');
    expect(stderr).toBe(''); // no progress bar: stderr is not a terminal
  });

  it('reports damage with exit code 1, repair fixes it, and check is clean again', async () => {
    await redis.raw.sRem(`${base()}:idx:country:NO`, '3'); // missing entry
    await redis.raw.sAdd(`${base()}:idx:country:FI`, '2'); // wrong entry
    await redis.raw.hSet(`${base()}:uniq:email`, 'ghost@example.com', '77'); // unique value of no object
    await redis.raw.zRem(`${redis.prefix}:{acme/CliUser}:all`, '1'); // orphan hash in the tenant
    const found = await cli.json(['check', 'CliUser', ...p()]);
    expect(found.code).toBe(1);
    expect(found.data.ok).toBe(false);
    const kinds = found.data.scopes.flatMap((s: { violations: Array<{ kind: string }> }) => s.violations.map((v) => v.kind));
    expect(kinds).toEqual(expect.arrayContaining(['missingEntry', 'wrongEntry', 'uniqueOwner', 'orphanHash']));
    const acme = found.data.scopes.find((s: { tenant: string | null }) => s.tenant === 'acme');
    expect(acme.violations.map((v: { kind: string }) => v.kind)).toContain('orphanHash');

    const table = await cli.run(['check', ...p()]);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^KIND\s+MODEL\s+TENANT\s+ID\s+DETAIL$/m);
    expect(table.stdout).toMatch(/^orphanHash\s+CliUser\s+acme\s+1\s/m);

    const repaired = await cli.json(['repair', ...p()]);
    expect(repaired.code).toBe(0);
    expect(repaired.data).toMatchObject({ ok: true, left: 0 });
    expect(repaired.data.fixed).toBeGreaterThanOrEqual(4);
    expect((await cli.run(['check', ...p()])).code).toBe(0);
    expect(await CliUser.scope('acme').count()).toBe(1);
  });

  it('names the key of a violation that has no object in the text tables of check and repair', async () => {
    const stray = `${base()}:stray`;
    await redis.raw.set(stray, 'x');
    try {
      const found = await cli.run(['check', 'CliUser', ...p()]);
      expect(found.code).toBe(1);
      expect(found.stdout).toMatch(
        new RegExp(`^unknownKey\\s+CliUser\\s+-\\s+-\\s+${stray.replace(/[{}]/g, '\\$&')}: a key outside the layout$`, 'm'),
      );
      const repaired = await cli.run(['repair', 'CliUser', ...p()]);
      expect(repaired.code).toBe(1);
      expect(repaired.stdout).toContain(`${stray}: a key outside the layout`);
      expect(await redis.raw.get(stray)).toBe('x'); // left: not a key of the layout, so not the library's to delete
    } finally {
      await redis.raw.del(stray);
    }
  });

  it('repair exits 1 while two objects hold a unique value that neither owned: one takes it, the other is left', async () => {
    const key = `${base()}:obj:2`;
    await redis.raw.hSet(key, { email: 'ann@example.com', '#ci:email': 'ann@example.com' });
    await redis.raw.hDel(`${base()}:uniq:email`, ['ann@example.com', 'bob@example.com']);
    const repaired = await cli.json(['repair', 'CliUser', ...p()]);
    expect(repaired.code).toBe(1);
    expect(repaired.data).toMatchObject({ ok: false, fixed: 1, left: 1 });
    expect(repaired.data.scopes[0].left).toEqual([expect.objectContaining({ kind: 'duplicateUnique', id: '2' })]);
    expect((await cli.run(['check', 'CliUser', ...p()])).code).toBe(1);
    await redis.raw.hSet(key, { email: 'bob@example.com', '#ci:email': 'bob@example.com' });
    expect((await cli.run(['repair', 'CliUser', ...p()])).code).toBe(0);
  });
});

describe('a stored definition that cannot be read', () => {
  it('fails the command naming its model; commands covering every model skip it with a warning', async () => {
    await redis.raw.hSet(`${redis.prefix}#models`, 'CliBroken', '{not json');
    try {
      expect(await cli.run(['check', 'CliUser', ...p()])).toMatchObject({ code: 0, stderr: '' });
      const named = await cli.run(['show', 'CliBroken', '1', ...p()]);
      expect(named.code).toBe(2);
      expect(named.stderr).toMatch(/^redis-record: failed: the stored definition of model "CliBroken" cannot be read \(.+\)\n$/);
      const all = await cli.json(['check', ...p()]);
      expect(all.code).toBe(0);
      expect(all.stderr).toMatch(/^redis-record: warning: the stored definition of model "CliBroken" cannot be read \(.+\); skipped\n$/);
      expect(all.data.scopes.map((s: { model: string }) => s.model)).toContain('CliUser');
    } finally {
      await redis.raw.hDel(`${redis.prefix}#models`, 'CliBroken');
    }
  });
});

describe('a stored definition that is not a valid one', () => {
  const registry = () => `${redis.prefix}#models`;
  const userKeys = async () => (await keysUnder(redis.raw, redis.prefix)).filter((key) => key.startsWith(`${base()}:`));

  /** Stores `fields` (field -> JSON) for the test, then deletes them. */
  async function withStored(fields: Record<string, string>, test: () => Promise<void>): Promise<void> {
    await redis.raw.hSet(registry(), fields);
    try {
      await test();
    } finally {
      await redis.raw.hDel(registry(), Object.keys(fields));
    }
  }

  it('an incomplete one is skipped with a warning by a command covering every model, and fails one naming it', async () => {
    await withStored({ CliBad4: '{"format":1,"indexes":[]}' }, async () => {
      const all = await cli.json(['check', ...p()]);
      expect(all.code).toBe(0);
      expect(all.stderr).toBe(
        'redis-record: warning: the stored definition of model "CliBad4" cannot be read (not a stored model definition of format 1: name must be a model name (1 to 64 letters, digits or _), got nothing); skipped\n',
      );
      expect(all.data.scopes.map((s: { model: string }) => s.model)).toContain('CliUser');
      const named = await cli.run(['check', 'CliBad4', ...p()]);
      expect(named.code).toBe(2);
      expect(named.stderr).toMatch(
        /^redis-record: failed: the stored definition of model "CliBad4" cannot be read \(not a stored model definition of format 1: .+\)\n$/,
      );
    });
  });

  it('one naming another model is never used: repair of it fails, and deletes nothing of that model', async () => {
    const user = JSON.parse((await redis.raw.hGet(registry(), 'CliUser'))!);
    const keys = await userKeys();
    await withStored({ CliEvil: JSON.stringify({ ...user, indexes: [] }) }, async () => {
      const named = await cli.run(['repair', 'CliEvil', ...p()]);
      expect(named).toMatchObject({ code: 2, stdout: '' });
      expect(named.stderr).toBe(
        'redis-record: failed: the stored definition of model "CliEvil" cannot be read (not a stored model definition of format 1: name must be the name it is stored under ("CliEvil"), got "CliUser")\n',
      );
      const all = await cli.json(['repair', ...p()]);
      expect(all.code).toBe(0);
      expect(all.stderr).toMatch(/^redis-record: warning: the stored definition of model "CliEvil" cannot be read \(.+\); skipped\n$/);
      expect(await userKeys()).toEqual(keys);
      expect((await cli.run(['check', 'CliUser', ...p()])).code).toBe(0);
    });
  });

  it('names that break the model-name rule, and fields of the wrong type, make it broken', async () => {
    const user = JSON.parse((await redis.raw.hGet(registry(), 'CliUser'))!);
    const broken = {
      'Cli{x}': { ...user, name: 'Cli{x}' },
      CliGroup: { ...user, name: 'CliGroup', group: 'a}b', layout: { ...user.layout, hashTag: 'group' } },
      CliIndex: { ...user, name: 'CliIndex', indexes: [{ kind: 'set', attribute: 'a:b', scope: null, caseInsensitive: false }] },
      CliTarget: { ...user, name: 'CliTarget', relations: [{ kind: 'belongsTo', property: 'x', target: 'No{pe', foreignKey: 'xId' }] },
      CliTtl: { ...user, name: 'CliTtl', ttlMs: '1000' },
      CliAttrs: { ...user, name: 'CliAttrs', attributes: null },
    };
    await withStored(
      Object.fromEntries(Object.entries(broken).map(([field, definition]) => [field, JSON.stringify(definition)])),
      async () => {
        const all = await cli.json(['models', ...p()]);
        expect(all.code).toBe(0);
        const warned = all.stderr.trim().split('\n');
        expect(warned).toHaveLength(Object.keys(broken).length);
        for (const name of Object.keys(broken)) {
          expect(warned).toContainEqual(
            expect.stringContaining(
              `the stored definition of model ${JSON.stringify(name)} cannot be read (not a stored model definition of format 1: `,
            ),
          );
        }
        expect(JSON.stringify(all.data)).not.toMatch(/Cli\{x\}|CliGroup|CliIndex|CliTarget|CliTtl|CliAttrs/);
      },
    );
  });
});

describe('reindex', () => {
  it('rebuilds index keys that were deleted, from the stored objects', async () => {
    await redis.raw.del([`${base()}:idx:age`, `${base()}:lex:name`, `${base()}:uniq:email`]);
    expect((await cli.run(['check', 'CliUser', ...p()])).code).toBe(1);
    const { code, data } = await cli.json(['reindex', 'CliUser', ...p()]);
    expect(code).toBe(0);
    expect(data.scopes).toEqual([
      expect.objectContaining({ tenant: null, objects: 3, outcomes: { rebuilt: 3 }, left: 0 }),
      expect.objectContaining({ tenant: 'acme', objects: 1, outcomes: { rebuilt: 1 }, left: 0 }),
    ]);
    expect((await cli.run(['check', 'CliUser', ...p()])).code).toBe(0);
    expect((await CliUser.findBy({ age: { gte: 30 } })).map((u) => u.id).sort()).toEqual(['1', '2']);
  });
});

describe('sweep', () => {
  it('deletes expired objects with every entry they had', async () => {
    for (let i = 0; i < 3; i++) await CliLog.create({ level: 'info' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const { code, data } = await cli.json(['sweep', 'CliLog', ...p()]);
    expect(code).toBe(0);
    expect(data).toEqual({ swept: 3, scopes: [{ model: 'CliLog', tenant: null, swept: 3 }] });
    const left = await redis.raw.keys(`${redis.prefix}:{CliLog}:*`);
    expect(left.filter((k) => !k.endsWith(':seq'))).toEqual([]);
    const again = await cli.run(['sweep', ...p()]);
    expect(again.stdout).toContain('0 expired objects deleted');
  });
});

describe('a prefix with no stored model', () => {
  it('is an error, exit 2, that lists the prefixes holding models', async () => {
    const { code, stdout, stderr } = await cli.run(['check', '--prefix', `${redis.prefix}-typo`]);
    expect(code).toBe(2);
    expect(stdout).toBe(''); // no empty table, no "ok: no violations"
    const line = /^redis-record: no model is stored under prefix "([^"]+)" \(prefixes with stored models: (.+)\)$/m.exec(stderr);
    expect(line?.[1]).toBe(`${redis.prefix}-typo`);
    expect(line?.[2].split(', ')).toContain(redis.prefix);
  });

  it('fails every command, models and --json included', async () => {
    for (const args of [['models'], ['models', '--json'], ['sweep'], ['stats', 'CliUser']]) {
      const { code, stdout, stderr } = await cli.run([...args, '--prefix', `${redis.prefix}-typo`]);
      expect([args, code, stdout]).toEqual([args, 2, '']);
      expect(stderr).toContain(`no model is stored under prefix "${redis.prefix}-typo"`);
    }
  });
});

describe('--version and --help', () => {
  it('--version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const { code, stdout } = await cli.run(['--version'], { url: null });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(version);
  });

  it.each([['models'], ['stats'], ['show'], ['check'], ['repair'], ['reindex'], ['sweep']])(
    "%s --help lists the global options with the command's own",
    async (command) => {
      const { code, stdout } = await cli.run([command, '--help'], { url: null });
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: redis-record ${command} `));
      const global = stdout.slice(stdout.indexOf('Global Options:'));
      for (const option of ['--url <url>', '--cluster <nodes>', '--prefix <prefix>', '--json', '--tenant <tenant>', '--version']) {
        expect(global).toContain(option);
      }
    },
  );
});

describe('usage errors and failures', () => {
  it.each([
    [['bogus']],
    [['show', 'CliUser']],
    [['stats', 'Nope', '--prefix', 'x']],
    [['check', '--batch-size', '0']],
    [['models', '--prefix', 'a{b']],
    [['models', '--tenant', 'a b']],
    [['show', 'CliUser', '1', 'extra']],
    [['models', 'extra']],
  ])('%j exits 2', async (args) => {
    const { code, stderr } = await cli.run([...args, ...(args.includes('--prefix') ? [] : p())]);
    expect(code).toBe(2);
    expect(stderr.length).toBeGreaterThan(0);
  });

  it('exits 2 when Redis cannot be reached or the URL is not a Redis URL', async () => {
    const down = await cli.run(['models', ...p()], { url: 'redis://:hunter22@127.0.0.1:1' });
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot connect');
    expect(down.stderr).not.toContain('hunter22');
    const wrong = await cli.run(['models'], { url: 'http://user:hunter22@127.0.0.1:1' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).not.toContain('hunter22');
  });
});

describe('a password-protected Redis', () => {
  let server: Awaited<ReturnType<typeof startPrivateRedis>>;
  beforeAll(async () => {
    server = await startPrivateRedis(['--requirepass', 's3cret']);
  });
  afterAll(() => server.stop());

  it('works with the password in the URL', async () => {
    // the server holds no model: past the password, the command says so (exit 2), naming no prefix
    const { code, stderr } = await cli.run(['models', '--prefix', 'none'], { url: `redis://:s3cret@127.0.0.1:${server.port}` });
    expect(code).toBe(2);
    expect(stderr).toContain('no model is stored under prefix "none" (no prefix on this server has one');
    const user = await cli.run(['check', '--prefix', 'none'], { url: `redis://default:s3cret@127.0.0.1:${server.port}` });
    expect(user.code).toBe(2);
    expect(user.stderr).toContain('no model is stored under prefix "none"');
  });

  it('fails with exit code 2 on a wrong password, without printing it', async () => {
    const { code, stderr } = await cli.run(['models'], { url: `redis://:wr0ngpass@127.0.0.1:${server.port}` });
    expect(code).toBe(2);
    expect(stderr).toMatch(/WRONGPASS|invalid/i);
    expect(stderr).not.toContain('wr0ngpass');
    const none = await cli.run(['models'], { url: `redis://127.0.0.1:${server.port}` });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/NOAUTH|auth/i);
  });
});

describe('the package', () => {
  it('installs the tool as its bin, a Node script', () => {
    const root = join(__dirname, '..', '..');
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin).toEqual({ 'redis-record': 'dist/cli/main.js' });
    expect(readFileSync(join(root, 'src', 'cli', 'main.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});

describe('redactUrl and redactSecrets', () => {
  it('mask the password wherever a message holds it', () => {
    expect(redactUrl('redis://user:p%40ss@host:6379/2')).toBe('redis://user:***@host:6379/2');
    expect(redactUrl('rediss://:secret@host')).toBe('rediss://:***@host');
    expect(redactUrl('redis://host:6379')).toBe('redis://host:6379');
    const url = 'redis://user:p%40ss@host:6379';
    expect(redactSecrets(`failed on ${url}: auth p@ss / p%40ss`, url)).toBe('failed on redis://user:***@host:6379: auth *** / ***');
  });
});

import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { createServer } from 'net';
import { join } from 'path';
import { Attr, BaseEntity, ConnectionError, Model, connect, disconnect } from '../../src';
import { PrivateRedis, startPrivateRedis } from '../../tools/private-redis';

/**
 * rediss:// with a password in the URL, against a private redis-server that only accepts TLS clients with
 * that password (a throwaway certificate authority made by openssl for the test).
 */
@Model()
class TlsNote extends BaseEntity {
  @Attr() text?: string;
}

const PASSWORD = 'S3cret-pa55';
let server: PrivateRedis;
let tlsPort = 0;
let ca = '';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let dir: string | undefined;

beforeAll(async () => {
  tlsPort = await freePort();
  const { mkdtempSync } = await import('fs');
  dir = mkdtempSync(join(require('os').tmpdir(), 'redis-record-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(join(dir, 'cert.pem'), 'utf8');
  server = await startPrivateRedis([
    '--requirepass',
    PASSWORD,
    '--tls-port',
    String(tlsPort),
    '--tls-cert-file',
    join(dir, 'cert.pem'),
    '--tls-key-file',
    join(dir, 'key.pem'),
    '--tls-ca-cert-file',
    join(dir, 'cert.pem'),
    '--tls-auth-clients',
    'no',
  ]);
});

afterAll(async () => {
  await disconnect();
  await server?.stop();
  // the certificate and key made for the run
  if (dir) (await import('fs')).rmSync(dir, { recursive: true, force: true });
});

describe('connecting with rediss:// and a password in the URL', () => {
  it('works end to end', async () => {
    await connect({ url: `rediss://:${PASSWORD}@127.0.0.1:${tlsPort}`, socket: { ca }, prefix: 'tls' });
    const note = await TlsNote.create({ text: 'over TLS' });
    expect((await TlsNote.findOrFail(note.id)).text).toBe('over TLS');
    await note.remove();
    await disconnect();
  });

  it('fails with a ConnectionError that never shows the password', async () => {
    const attempts = [
      `rediss://:wrong-${PASSWORD}@127.0.0.1:${tlsPort}`,
      `redis://:wrong-${PASSWORD}@127.0.0.1:${server.port}`,
      `redis://:${PASSWORD}@[not a host`,
    ];
    for (const url of attempts) {
      const error = await connect({ url, socket: url.startsWith('rediss:') ? { ca } : {}, prefix: 'tls' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).not.toContain(PASSWORD);
      expect(JSON.stringify(error)).not.toContain(PASSWORD);
    }
  });
});

describe('prefixes', () => {
  it('refuse braces and lone surrogates, which would let two prefixes share keys', async () => {
    for (const prefix of ['', 'a{b', 'x}', 'p\uD800']) {
      await expect(connect({ url: server.url.replace('redis://', `redis://:${PASSWORD}@`), prefix })).rejects.toThrow(/invalid prefix/);
    }
  });
});

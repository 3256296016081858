import { serverNameOf } from '../../src/redis/server-name';

// The names read from a real server are checked in server-requirements.test.ts (the refusal's message).
describe("serverNameOf: the server and its version from INFO's server section", () => {
  it('names a Valkey by its own version, not the Redis version it answers as', () => {
    expect(serverNameOf('# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n')).toBe('Valkey 8.0.1');
  });

  it('names a Redis by redis_version, and gives nothing for a section without either', () => {
    expect(serverNameOf('# Server\r\nredis_version:6.0.16\r\nredis_mode:standalone\r\n')).toBe('Redis 6.0.16');
    expect(serverNameOf('# Server\r\nrun_id:abc\r\n')).toBeUndefined();
  });
});

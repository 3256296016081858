/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: { '^redis-record$': '<rootDir>/src/index.ts' },
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  testTimeout: 60000,
  // Two test files at once, also on a 2-core machine (jest's default there is one): most of a file's time is
  // spent waiting on Redis servers, clusters and child processes, so the suite takes about half as long.
  maxWorkers: 2,
};

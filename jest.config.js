// Under `npm test`, tsc has type-checked every file before jest starts (`npm run typecheck`): the compile-time
// tests are then compiled alone like the others, not type-checked a second time.
const typeCheckedFirst = process.env.npm_lifecycle_event === 'test';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Models written with standard (TC39) decorators: compiled without experimentalDecorators (and so without
    // decorator metadata), as TypeScript 5 does by default; `npm run typecheck` type-checks them.
    '/tests/(decorators-standard|types/standard)/.+\\.ts$': '<rootDir>/tests/support/standard-decorators-transform.js',
    // The compile-time tests (what must and must not compile) are type-checked as ts-jest compiles them, so that
    // `npx jest tests/types` alone still fails on a line that compiles where it must not, or the reverse.
    ...(typeCheckedFirst ? {} : { '/tests/types/.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] }),
    // Every other file is compiled alone (tsconfig.jest.json: isolatedModules), about half the suite's time;
    // `npm test` type-checks the whole project with tsc first.
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
  },
  moduleNameMapper: { '^redis-record$': '<rootDir>/src/index.ts', '^redis-record/admin$': '<rootDir>/src/admin.ts' },
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  // Generous: a test's budget must hold with another full suite running beside it on the same 2 cores.
  testTimeout: 180_000,
  // Four test files at once, also on a 2-core machine (jest's default there is one): most of a file's time is
  // spent waiting on Redis servers, clusters, failovers and child processes, which leaves the cores idle with
  // fewer files in flight.
  maxWorkers: 4,
};

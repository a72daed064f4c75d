/** Jest runs the TypeScript sources in ESM mode (the package is "type": "module"). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  // A deadline for a test that hangs, not a speed limit: generous enough for a machine under load.
  testTimeout: 120000,
  maxWorkers: 2,
  // How long a worker may take to exit once the run is over, before jest kills it and prints "A worker
  // process has failed to exit gracefully". jest's 500 ms is a wall-clock limit: beside stress-ng a worker
  // whose last file's sockets are still closing (a PostgreSQL pool after end(), Redis after QUIT) missed it.
  // A deadline, not a speed: a real leak (a timer, a server left listening) never lets the worker exit, and
  // is still reported, as are the files that left handles open (test/support/handles-per-file.cjs).
  workerGracefulExitTimeout: 10_000,
  setupFilesAfterEnv: ['<rootDir>/test/support/cpu-per-file.cjs', '<rootDir>/test/support/handles-per-file.cjs'],
  reporters: ['default', '<rootDir>/test/support/slowest-files-reporter.cjs', '<rootDir>/test/support/summary-reporter.cjs'],
};

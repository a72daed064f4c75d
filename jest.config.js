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
  setupFilesAfterEnv: ['<rootDir>/test/support/cpu-per-file.cjs', '<rootDir>/test/support/handles-per-file.cjs'],
  reporters: ['default', '<rootDir>/test/support/slowest-files-reporter.cjs', '<rootDir>/test/support/summary-reporter.cjs'],
};

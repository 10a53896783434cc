/** Three projects: fast unit tests, e2e tests that spawn the built CLI, and the bounded reliability suite. */
// `@agentclientprotocol/sdk` ships ES modules only: jest (CommonJS on Node 20) loads it transpiled.
const ESM_DEPENDENCIES = ['@agentclientprotocol/sdk'];
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }],
  [`node_modules/(${ESM_DEPENDENCIES.join('|')})/.+\\.js$`]: ['ts-jest', { tsconfig: 'tsconfig.esm-deps.json' }],
};
const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_DEPENDENCIES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
// postgres.md §3: one throwaway PostgreSQL server per run for the suites that run on both store drivers.
const postgres = {
  globalSetup: '<rootDir>/test/support/postgres.global-setup.ts',
  globalTeardown: '<rootDir>/test/support/postgres.global-teardown.ts',
};

module.exports = {
  projects: [
    { ...common, ...postgres, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts'] },
    { ...common, ...postgres, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    {
      ...common,
      displayName: 'reliability',
      testMatch: ['<rootDir>/test/reliability/**/*.rel-spec.ts'],
      // The attack tally (issue 12): a file the suites append to, summed and printed at the end.
      globalSetup: '<rootDir>/test/reliability/support/attack-tally.setup.ts',
      globalTeardown: '<rootDir>/test/reliability/support/attack-tally.teardown.ts',
    },
  ],
};

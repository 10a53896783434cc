/** Three projects: fast unit tests, e2e tests that spawn the built CLI, and the bounded reliability suite. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    { ...common, displayName: 'reliability', testMatch: ['<rootDir>/test/reliability/**/*.rel-spec.ts'] },
  ],
};

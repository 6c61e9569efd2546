import { defineConfig } from 'vitest/config';

// Three suites: pure domain tests, HTTP tests against the local stack (started once by
// the global setup, with a real DynamoDB Local), and CDK assertion tests on the template.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Synthesizing the stack (in beforeAll) takes well over the default 10 s hook limit on a busy machine.
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});

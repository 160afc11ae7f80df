import { defineConfig } from 'vitest/config';

// Two projects: "unit" (pure logic, fast) and "api" (through the HTTP API against a real database:
// PGlite by default, PostgreSQL when TEST_DATABASE_URL is set — scripts/test.mjs runs it both ways).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.unit.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts', 'packages/psa/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});

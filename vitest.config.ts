import { defineConfig } from 'vitest/config';

// Projects: "unit" (pure logic, fast), "api" (through the HTTP API against a real database:
// PGlite by default, PostgreSQL when TEST_DATABASE_URL is set — scripts/test.mjs runs it both ways),
// "clone" (a fresh clone's `npm start`), and the web app's own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.unit.test.ts', 'tests/**/*.unit.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts', 'packages/psa/test/**/*.test.ts', 'packages/db/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // On PostgreSQL, one migrated template database that each test file's database is copied from.
          globalSetup: ['apps/server/test/api-global-setup.ts'],
          pool: 'forks',
          // scripts/test.mjs gives the PGlite pass three (it runs beside the PostgreSQL pass, and both wait on timers and the simulator).
          maxWorkers: Number(process.env.SB_API_WORKERS ?? 2),
          // Each worker process imports the server once for all its files (every file builds its own app and
          // database, so nothing is shared but the module cache); per-file isolation cost ~100 s of imports.
          isolate: false,
        },
      },
      {
        // A fresh clone of HEAD runs `npm start` alone (issue #6 §1); slow, so scripts/test.mjs runs it as its own step.
        test: {
          name: 'clone',
          include: ['tests/**/*.clone.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});

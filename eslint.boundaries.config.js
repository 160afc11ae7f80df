// The workspace boundaries of DESIGN §2, as `no-restricted-imports` blocks. eslint.config.js spreads
// `boundaryRules`; tests/lint-boundaries.unit.test.ts lints probe imports against this file alone
// (its default export adds only the TypeScript parser), so every rule is shown to fire.
import tseslint from 'typescript-eslint';

const APP_CODE = {
  group: ['@switchboard/server', '@switchboard/server/**', '@switchboard/web', '@switchboard/web/**', '@switchboard/e2e', '@switchboard/bench', '**/apps/**'],
  message: 'Packages import no app code (DESIGN §2): move what both need into a package.',
};

export const boundaryRules = [
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@switchboard/*', '!@switchboard/contracts', '!@switchboard/contracts/**'],
              message: 'The web app imports only @switchboard/contracts of the workspace (DESIGN §2).',
            },
            {
              group: ['**/apps/server/**', '**/server/src/**', '**/server/test/**', '**/packages/**'],
              message: 'The web app never imports server or package code by path; only @switchboard/contracts is shared (DESIGN §2).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    ignores: ['packages/contracts/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [APP_CODE] }] },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [APP_CODE, { group: ['@switchboard/*', '**/packages/**'], message: 'contracts depends only on zod (DESIGN §2): both sides import it.' }] },
      ],
    },
  },
  {
    // Production server code; the demo seed and the embedded launcher (`npm start`) may use the simulator, and tests may.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/demo/**', 'apps/server/src/embedded.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@switchboard/psa-sim', '@switchboard/psa-sim/**', '**/packages/psa-sim/**', '**/demo/**'],
              message: 'Production server code never imports the PSA simulator or the demo seed; only src/demo/ and src/embedded.ts may (DESIGN §2).',
            },
            {
              group: ['@switchboard/web', '@switchboard/web/**', '**/apps/web/**', '**/web/src/**'],
              message: 'The server never imports web code; only @switchboard/contracts is shared (DESIGN §2).',
            },
          ],
        },
      ],
    },
  },
];

export default [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...boundaryRules];

import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4317);
const jsonReport = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME;

/** Browser journeys in Debian's Chromium against the real server + PSA simulator (never a downloaded browser). */
export default defineConfig({
  testDir: './journeys',
  timeout: 120_000,
  // 20 s: on the loaded 2-core CI machine a first screen after sign-in once took over 10 s to render (it came).
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: jsonReport ? [['list'], ['json', { outputFile: jsonReport }]] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    // No trace by default: recording one for every journey cost about a quarter of the journeys' CPU (user+sys
    // 47 → 32 s on three specs), and a CI run keeps only its log, where scripts/test.mjs prints a failed journey's
    // error context. E2E_TRACE=retain-on-failure (or `--trace on`) records them when chasing a failure locally.
    trace: (process.env.E2E_TRACE as 'on' | 'off' | 'retain-on-failure' | undefined) ?? 'off',
    // The journeys ask for reduced motion, as some people do: the app then opens and closes dialogs and lists without
    // transitions, so a check never reads a half-faded dialog (axe measured its button's text mid-fade) and a click never
    // lands on a list that is still fading out.
    reducedMotion: 'reduce',
  },
  // scripts/test.mjs gives each shard its own (a run empties its output directory when it starts).
  outputDir: process.env.E2E_OUTPUT_DIR ?? '../test-results',
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 860 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
        },
      },
    },
  ],
  webServer: {
    command: `node --import tsx e2e/serve-e2e.ts`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/ready`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
  },
});

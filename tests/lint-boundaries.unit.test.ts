import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// Only the boundary blocks (eslint.config.js spreads the same ones), so no type information is needed.
const eslint = new ESLint({ cwd: root, overrideConfigFile: fileURLToPath(new URL('../eslint.boundaries.config.js', import.meta.url)) });

/** The no-restricted-imports messages for one import line placed in a file at `filePath`. */
async function boundaryErrors(filePath: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const probe = 1;\n`, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('lint enforces the workspace boundaries of DESIGN §2', () => {
  it.each([
    "import { users } from '@switchboard/db';",
    "import type { TPsaClient } from '@switchboard/psa';",
    "import { startPsaSimulator } from '@switchboard/psa-sim';",
    "import { buildApp } from '@switchboard/server';",
    "import { buildApp } from '../../../server/src/app';",
    "import { users } from '../../../../packages/db/src/index';",
  ])('web refuses %s', async (line) => {
    expect(await boundaryErrors('apps/web/src/features/probe/probe.tsx', line)).toEqual([expect.stringContaining('DESIGN §2')]);
  });

  it('web may import contracts, its own code and libraries', async () => {
    expect(await boundaryErrors('apps/web/src/features/probe/probe.tsx', "import { MESSAGES } from '@switchboard/contracts';")).toEqual([]);
    expect(await boundaryErrors('apps/web/src/features/probe/probe.tsx', "import { api } from '../../lib/api-client';")).toEqual([]);
    expect(await boundaryErrors('apps/web/src/features/probe/probe.tsx', "import { Button } from '@mantine/core';")).toEqual([]);
  });

  it.each(['packages/psa/src/probe.ts', 'packages/psa-sim/src/probe.ts', 'packages/db/src/probe.ts', 'packages/contracts/src/probe.ts'])('%s imports no app code', async (filePath) => {
    // contracts also reports its own stricter rule for these.
    expect(await boundaryErrors(filePath, "import { buildApp } from '@switchboard/server';")).toEqual(expect.arrayContaining([expect.stringContaining('no app code')]));
    expect(await boundaryErrors(filePath, "import { buildApp } from '../../../apps/server/src/app';")).toEqual(expect.arrayContaining([expect.stringContaining('no app code')]));
  });

  it('contracts imports no other workspace package; psa may still use contracts', async () => {
    expect(await boundaryErrors('packages/contracts/src/probe.ts', "import { users } from '@switchboard/db';")).toEqual([expect.stringContaining('only on zod')]);
    expect(await boundaryErrors('packages/psa/src/probe.ts', "import { MESSAGES } from '@switchboard/contracts';")).toEqual([]);
  });

  it.each([
    ['apps/server/src/modules/probe/probe.service.ts', "import { startPsaSimulator } from '@switchboard/psa-sim';"],
    ['apps/server/src/main.ts', "import { seedDemoMsp } from './demo/seed-demo';"],
    ['apps/server/src/modules/probe/probe.routes.ts', "import { DEMO_MSP } from '../../demo/seed-demo';"],
    ['apps/server/src/lib/probe.ts', "import { loadDemoData } from '../../../../packages/psa-sim/src/demo-data';"],
  ])('production server code %s refuses %s', async (filePath, line) => {
    expect(await boundaryErrors(filePath, line)).toEqual([expect.stringContaining('never imports the PSA simulator')]);
  });

  it('the demo seed, the embedded launcher and server tests may use the simulator', async () => {
    const line = "import { startPsaSimulator } from '@switchboard/psa-sim';";
    expect(await boundaryErrors('apps/server/src/demo/seed-demo.ts', line)).toEqual([]);
    expect(await boundaryErrors('apps/server/src/embedded.ts', line)).toEqual([]);
    expect(await boundaryErrors('apps/server/src/modules/probe/probe.api.test.ts', line)).toEqual([]);
  });

  it('the server never imports web code', async () => {
    expect(await boundaryErrors('apps/server/src/app.ts', "import { routes } from '../../web/src/app/router';")).toEqual([expect.stringContaining('never imports web code')]);
  });
});

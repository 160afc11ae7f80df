// `npm start`: installs what is missing, builds the SPA when stale, then runs the embedded default
// (PGlite in .data/, the PSA simulator beside the app, the demo MSP) on one port.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies, ensureWebBuild, root } from './lib.mjs';

ensureDependencies();
ensureWebBuild();

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/embedded.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

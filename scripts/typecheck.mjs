// Type-checks every workspace: the Node workspaces together in one program (tsconfig.typecheck.json: the same
// options, so a file imported by several is checked once, not once per workspace), then the web app (DOM types,
// JSX) and the journeys (DOM types) with their own tsconfigs. Each workspace's tsconfig.json stays what editors
// and ESLint read.
import { execFileSync } from 'node:child_process';

let failed = false;
for (const project of ['tsconfig.typecheck.json', 'apps/web', 'e2e']) {
  try {
    execFileSync('node_modules/.bin/tsc', ['-p', project], { stdio: 'inherit' });
  } catch {
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('typecheck: all workspaces clean');

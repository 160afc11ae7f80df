// Type-checks every workspace with its own tsconfig (web has DOM types, server has Node types).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['packages/contracts', 'packages/assistant', 'packages/db', 'packages/psa', 'packages/psa-sim', 'apps/server', 'apps/web', 'e2e', 'bench', 'tests'];
let failed = false;
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) continue;
  try {
    execFileSync('node_modules/.bin/tsc', ['-p', project], { stdio: 'inherit' });
  } catch {
    failed = true;
  }
}
if (failed) process.exit(1);
console.log('typecheck: all workspaces clean');

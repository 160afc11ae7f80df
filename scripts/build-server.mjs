// Builds the server to plain JavaScript for production (`node apps/server/dist/main.js`, no tsx), as
// scripts/server-bundle.mjs describes (shared with the benches that measure the built server). Then
// checks that each of those imports is a production dependency, so `npm ci --omit=dev` is enough.
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './lib.mjs';
import { copyServerAssets, serverBuildOptions } from './server-bundle.mjs';

const outdir = join(root, 'apps/server/dist');
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  ...serverBuildOptions,
  entryPoints: { main: join(root, 'apps/server/src/main.ts'), migrate: join(root, 'apps/server/src/migrate.ts') },
  outdir,
});
// The migrations and board templates travel with the bundle (read beside the module).
copyServerAssets(outdir);

// Every npm package the bundle imports must be a production dependency of a workspace it came from.
const packageName = (specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const workspaces = ['apps/server', 'packages/assistant', 'packages/contracts', 'packages/db', 'packages/psa', 'packages/psa-sim'];
const production = new Set(workspaces.flatMap((dir) => Object.keys(readJson(`${dir}/package.json`).dependencies ?? {})));
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const entry of output.imports) {
    if (entry.external && !builtins.has(entry.path) && !builtins.has(packageName(entry.path))) imported.add(packageName(entry.path));
  }
}
const missing = [...imported].filter((name) => !production.has(name)).sort();
if (missing.length > 0) {
  console.error(`✗ the server bundle imports packages that are not production dependencies: ${missing.join(', ')}`);
  process.exit(1);
}
const size = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(([file, output]) => `${file.replace(/^.*dist\//, 'dist/')} ${(output.bytes / 1024).toFixed(0)} KB`)
  .join(', ');
console.log(`server built: ${size}; imports ${imported.size} npm packages, all production dependencies (${[...imported].sort().join(', ')})`);

// Builds the server to plain JavaScript for production (`node apps/server/dist/main.js`, no tsx):
// one ESM bundle per entry point with the workspace packages (@switchboard/*, TypeScript sources)
// inlined and every npm package left as an import, resolved from node_modules at run time. Then
// checks that each of those imports is a production dependency, so `npm ci --omit=dev` is enough.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './lib.mjs';

const outdir = join(root, 'apps/server/dist');
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** Bare imports of npm packages stay imports; workspace packages and relative files are bundled. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@switchboard/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: join(root, 'apps/server/src/main.ts'), migrate: join(root, 'apps/server/src/migrate.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalNpmPackages],
});
// The migrations travel with the bundle (packages/db's MIGRATIONS_FOLDER looks beside the module first).
cpSync(join(root, 'packages/db/drizzle'), join(outdir, 'drizzle'), { recursive: true });
// Board templates are read beside the module: the bundle is one module in dist/.
cpSync(join(root, 'apps/server/src/modules/boards/templates'), join(outdir, 'templates'), { recursive: true });
writeFileSync(join(outdir, 'package.json'), JSON.stringify({ type: 'module', private: true }, null, 2) + '\n');

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

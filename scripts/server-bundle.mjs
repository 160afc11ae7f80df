// How the server is bundled for production, shared by scripts/build-server.mjs (apps/server/dist) and the
// benches that measure the built server (bench/import-sync.bench.ts): one ESM bundle per entry point with the
// workspace packages (@switchboard/*, TypeScript sources) inlined and every npm package left as an import,
// resolved from node_modules at run time — so the output must sit inside the repo (under apps/server for the
// server's own node_modules), and the files the bundle reads beside itself are copied next to it.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

/** Bare imports of npm packages stay imports; workspace packages and relative files are bundled. */
export const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@switchboard/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** esbuild options of the production server bundle, without its entry points and output folder. */
export const serverBuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalNpmPackages],
};

/** Copies what the bundle reads beside itself into `outdir`, and marks the folder as ESM. */
export function copyServerAssets(outdir) {
  // The migrations travel with the bundle (packages/db's MIGRATIONS_FOLDER looks beside the module first).
  cpSync(join(root, 'packages/db/drizzle'), join(outdir, 'drizzle'), { recursive: true });
  // Board templates are read beside the module: the bundle is one module in its folder.
  cpSync(join(root, 'apps/server/src/modules/boards/templates'), join(outdir, 'templates'), { recursive: true });
  writeFileSync(join(outdir, 'package.json'), JSON.stringify({ type: 'module', private: true }, null, 2) + '\n');
}

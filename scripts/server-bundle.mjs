// How the server is bundled for production, shared by scripts/build-server.mjs (apps/server/dist) and the
// benches that measure the built server (bench/import-sync.bench.ts): one ESM bundle per entry point with the
// workspace packages (@switchboard/*, TypeScript sources) inlined and every npm package left as an import,
// resolved from node_modules at run time — so the output must sit inside the repo (under apps/server for the
// server's own node_modules), and the files the bundle reads beside itself are copied next to it. The server's worker
// threads are built beside every bundle too (serverWorkers), so a caller lists only its own entry points.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
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

/**
 * Worker-thread entry points, each started by the server from `new URL('./<name>.js', import.meta.url)`: the code that
 * starts it is inlined in the bundle, so the worker must sit beside it (decision 045).
 */
const WORKER_ENTRY_POINTS = {
  'categoriser-worker': join(root, 'apps/server/src/modules/assistant/categoriser-training.worker.ts'),
};

const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
};

/**
 * Builds the workers into the same folder with the same options once the bundle is built, and adds their outputs to
 * the bundle's metafile, so what checks the bundle's imports (build-server.mjs) checks theirs too.
 */
export const serverWorkers = {
  name: 'server-workers',
  setup(builder) {
    builder.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      const workers = await build({ ...bundleOptions, plugins: [externalNpmPackages], entryPoints: WORKER_ENTRY_POINTS, outdir: builder.initialOptions.outdir });
      if (result.metafile && workers.metafile) Object.assign(result.metafile.outputs, workers.metafile.outputs);
    });
  },
};

/** esbuild options of the production server bundle, without its entry points and output folder. */
export const serverBuildOptions = { ...bundleOptions, plugins: [externalNpmPackages, serverWorkers] };

/** Copies what the bundle reads beside itself into `outdir`, and marks the folder as ESM. */
export function copyServerAssets(outdir) {
  // The migrations travel with the bundle (packages/db's MIGRATIONS_FOLDER looks beside the module first).
  cpSync(join(root, 'packages/db/drizzle'), join(outdir, 'drizzle'), { recursive: true });
  // Board templates are read beside the module: the bundle is one module in its folder.
  cpSync(join(root, 'apps/server/src/modules/boards/templates'), join(outdir, 'templates'), { recursive: true });
  writeFileSync(join(outdir, 'package.json'), JSON.stringify({ type: 'module', private: true }, null, 2) + '\n');
}

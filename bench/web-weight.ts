/**
 * Prints the gzip weight of what the browser loads for each sign-in route of the built SPA,
 * next to the weight of every asset. Builds nothing: run `npm run build` first, then
 * `npm run bench:web`. Reads Vite's manifest (apps/web/dist/.vite/manifest.json): a route loads
 * the entry chunk, the entry's static imports and CSS, then its lazily loaded page module with
 * that module's static imports and CSS. Target (issue #6 §5): at most 150 KB gzip.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type TManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };
type TManifest = Record<string, TManifestChunk>;

/** KB here is 1,000 bytes, as in the figures (263 KB before). */
const TARGET_BYTES = 150_000;
const distDir = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const manifestPath = join(distDir, '.vite', 'manifest.json');

/** The sign-in routes and the page module each one loads lazily (apps/web/src/features/auth/routes.tsx). */
const signInRoutes: { path: string; page: string }[] = [
  { path: '/auth/login', page: 'src/features/auth/pages/general-login-page.tsx' },
  { path: '/{msp}', page: 'src/features/auth/pages/msp-landing-page.tsx' },
  { path: '/auth/login/tech', page: 'src/features/auth/pages/msp-user-login-page.tsx' },
];

function gzipSize(file: string): number {
  return gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
}

/** Adds `key`'s chunk file, its CSS and, recursively, its static imports to `files`. */
function collect(manifest: TManifest, key: string, files: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no entry "${key}"; did a page move?`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, files);
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

function main(): void {
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}. Run \`npm run build\` first (build.manifest is on in apps/web/vite.config.ts).`);
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as TManifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry === true);
  if (!entryKey) throw new Error('The manifest names no entry chunk.');

  const assets = readdirSync(join(distDir, 'assets')).filter((name) => name.endsWith('.js') || name.endsWith('.css'));
  const total = assets.reduce((sum, name) => sum + gzipSize(join('assets', name)), 0);

  const shell = new Set<string>();
  collect(manifest, entryKey, shell);
  const shellBytes = [...shell].reduce((sum, file) => sum + gzipSize(file), 0);

  console.log(`Web weight (gzip, level 9) from ${distDir}`);
  console.log(`  all JS and CSS assets (${assets.length} files): ${kb(total)}`);
  console.log(`  app shell (entry + static imports + CSS, ${shell.size} files): ${kb(shellBytes)}`);
  let heaviest = 0;
  for (const route of signInRoutes) {
    const files = new Set(shell);
    collect(manifest, route.page, files);
    const bytes = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
    const css = [...files].filter((file) => file.endsWith('.css')).reduce((sum, file) => sum + gzipSize(file), 0);
    heaviest = Math.max(heaviest, bytes);
    console.log(`  sign-in route ${route.path.padEnd(17)} ${kb(bytes).padStart(9)}  (${files.size} files, CSS ${kb(css)})`);
  }
  // Not part of the first load, but fetched as soon as the session check answers: say so.
  const schemaKey = 'src/lib/schemas.ts';
  if (manifest[schemaKey]) {
    const later = new Set<string>();
    collect(manifest, schemaKey, later);
    const extra = [...later].filter((file) => !shell.has(file));
    const bytes = extra.reduce((sum, file) => sum + gzipSize(file), 0);
    console.log(`  + validation (zod and the schemas), loaded while the first API answer is awaited: ${kb(bytes)} (${extra.length} files)`);
  }
  const verdict = heaviest <= TARGET_BYTES ? 'within' : 'OVER';
  console.log(`  heaviest sign-in route: ${kb(heaviest)} — ${verdict} the ${kb(TARGET_BYTES)} target`);
  if (heaviest > TARGET_BYTES) process.exitCode = 1;
}

main();

// Types of scripts/server-bundle.mjs for the TypeScript benches that bundle the server as production does.
import type { BuildOptions, Plugin } from 'esbuild';

export declare const externalNpmPackages: Plugin;
export declare const serverBuildOptions: BuildOptions & { metafile: true };
export declare function copyServerAssets(outdir: string): void;

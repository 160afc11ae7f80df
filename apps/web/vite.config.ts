/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Mantine components on the sign-in pages' first screen (the later steps load on their own). */
const SIGN_IN_COMPONENTS = [
  'Alert', 'Anchor', 'Box', 'Button', 'Center', 'CloseButton', 'Container', 'Group', 'Image', 'Input', 'InputBase', 'Loader', 'Paper', 'Stack', 'Text', 'TextInput', 'Title', 'Transition', 'UnstyledButton',
];
const SIGN_IN_PATTERNS = [
  /[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/](MantineProvider|Box|styles-api|factory|InlineStyles)[\\/]/,
  /[\\/]@mantine[\\/]store[\\/]/,
  /[\\/]node_modules[\\/](clsx|zustand)[\\/]/,
  new RegExp(`[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/]components[\\\\/](${SIGN_IN_COMPONENTS.join('|')})[\\\\/]`),
  /[\\/]packages[\\/]contracts[\\/]src[\\/](messages-core|validation|constants|paths)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]app[\\/]brand[\\/]/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]session[\\/](session-guards|api[\\/]session-queries)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]api[\\/]auth-api\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]lib[\\/](error-message|flow-notice|user-kind)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]components[\\/](auth-layout|email-field|email-step|form-error|msp-auth-frame|msp-not-found|msp-user-login-flow|user-kind-toggle)\.tsx$/,
];
/** The app's shared code (app/, components/, lib/): in the sign-in file only where a sign-in page or the entry imports it. */
const SHARED_SOURCE = /[\\/]apps[\\/]web[\\/]src[\\/](app|components|lib)[\\/][^/\\]+\.tsx?$/;
/** The sign-in pages bench:web weighs (each loads on its own from the entry). */
const SIGN_IN_PAGES = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]pages[\\/](general-login-page|msp-user-login-page|msp-landing-page)\.tsx$/;

/**
 * The app's own modules that the entry or a sign-in page imports statically (followed through the app's own files,
 * not into node_modules), known once the module graph is built and before chunks are made. Without it every file of
 * lib/ and components/ went into the sign-in file, whether a sign-in page used it or not (bench:web, issue #6).
 */
const signInGraph = new Set<string>();
function signInGraphPlugin(): Plugin {
  return {
    name: 'switchboard-sign-in-graph',
    apply: 'build',
    buildEnd() {
      signInGraph.clear();
      const seeds = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry || SIGN_IN_PAGES.test(id));
      const stack = [...seeds];
      while (stack.length > 0) {
        const id = stack.pop() as string;
        if (signInGraph.has(id) || id.includes('node_modules')) continue;
        signInGraph.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
}

const isSignInModule = (id: string): boolean =>
  !id.endsWith('schemas.ts') && (SIGN_IN_PATTERNS.some((pattern) => pattern.test(id)) || (SHARED_SOURCE.test(id) && signInGraph.has(id)));

export default defineConfig({
  plugins: [react(), signInGraphPlugin()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/db', '/psa', '/gpt', '/auth/', '/docs', '/dev', '/uploads', '/health', '/ready'].map((p) => [p, 'http://127.0.0.1:3000'])),
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // bench/web-weight.ts reads the manifest to weigh what each sign-in route loads.
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every sign-in page needs at start, as two files instead of thirty: the gzip of one
          // file is smaller than that of many small ones (issue #6 §5). bench:web prints the result.
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/ },
            { name: 'sign-in', test: isSignInModule },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // One module cache per worker instead of one per file: re-importing React, Mantine and the screens for each of the
    // ~80 files was half of this project's time (160 s → 90 s on two workers). src/test-setup.ts empties what modules
    // keep (stores, query cache, notifications, storage) after each file.
    isolate: false,
    css: false,
  },
});

/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
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
  /[\\/]packages[\\/]contracts[\\/]src[\\/](messages|validation|constants|paths)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/](app|components|lib)[\\/][^/\\]+\.tsx?$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]app[\\/]brand[\\/]/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]session[\\/](session-guards|api[\\/]session-queries)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]api[\\/]auth-api\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]lib[\\/](error-message|flow-notice|user-kind)\.ts$/,
  /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]components[\\/](auth-layout|email-field|email-step|form-error|msp-auth-frame|msp-not-found|msp-user-login-flow|user-kind-toggle)\.tsx$/,
];
const isSignInModule = (id: string): boolean => !id.endsWith('schemas.ts') && SIGN_IN_PATTERNS.some((pattern) => pattern.test(id));

export default defineConfig({
  plugins: [react()],
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
    css: false,
  },
});

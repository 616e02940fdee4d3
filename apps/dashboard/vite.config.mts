import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The admin dashboard: Preact compiled by esbuild's own JSX transform (no framework plugin),
 * bundled into dist/apps/dashboard, where the gateway serves it at /dashboard. Every asset is in
 * the bundle: nothing is fetched from another origin at run time.
 */
export default defineConfig({
  root,
  base: '/dashboard/',
  publicDir: false,
  logLevel: 'warn',
  cacheDir: fileURLToPath(new URL('../../dist/.vite-cache', import.meta.url)),
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 400,
  },
});

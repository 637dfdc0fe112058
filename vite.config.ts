import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Browser bundles, both in dist/client with one manifest (.vite/manifest.json) the server reads:
 *
 * - `admin` (src/web/entry-admin.tsx): the /config admin, React 19. This config.
 * - `site` (src/web/entry-client.tsx): the islands of the public pages, built right after by the plugin
 *   below with Preact through preact/compat aliases: React's DOM library alone is about 60 KB gzipped,
 *   most of the product page's 80 KB budget (issue #4); Preact is under 10. The server still renders
 *   islands with React's renderToString (src/web/ssr.tsx); Preact hydrates that markup. Islands are
 *   written against React's API; use only what preact/compat provides (hooks incl. useId and
 *   useSyncExternalStore, createPortal, forwardRef, memo; not `use`, useActionState or useOptimistic).
 */
const OUT = 'dist/client';
const ADMIN_MANIFEST = '.vite/admin-manifest.json';
const SITE_MANIFEST = '.vite/site-manifest.json';

export const PREACT_ALIASES = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
];

const shared = {
  outDir: OUT,
  sourcemap: false,
  target: 'es2022',
} as const;

/** After the admin build: the site build (Preact), then one manifest of both. */
function siteBundle(): Plugin {
  let mode = 'production';
  let outDir = OUT;
  return {
    name: 'tessera-site-bundle',
    apply: 'build',
    configResolved(c) {
      mode = c.mode;
      outDir = c.build.outDir;
    },
    async closeBundle(error?: Error) {
      if (error) return;
      await build({
        configFile: false,
        mode,
        logLevel: 'warn',
        publicDir: false,
        plugins: [react()],
        resolve: { alias: PREACT_ALIASES },
        build: {
          ...shared,
          outDir,
          emptyOutDir: false,
          manifest: SITE_MANIFEST,
          rollupOptions: { input: { site: 'src/web/entry-client.tsx' } },
        },
      });
      const read = (f: string) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(outDir, '.vite/manifest.json'), JSON.stringify({ ...read(ADMIN_MANIFEST), ...read(SITE_MANIFEST) }, null, 2));
    },
  };
}

export default defineConfig({
  plugins: [react(), siteBundle()],
  publicDir: false,
  build: {
    ...shared,
    emptyOutDir: true,
    manifest: ADMIN_MANIFEST,
    rollupOptions: {
      input: {
        admin: 'src/web/entry-admin.tsx',
      },
    },
  },
});

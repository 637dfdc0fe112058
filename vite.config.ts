import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Browser bundles: the islands entry for public pages and the /config admin entry.
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      input: {
        site: 'src/web/entry-client.tsx',
        admin: 'src/web/entry-admin.tsx',
      },
    },
  },
});

// Builds the browser bundle when it is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const manifest = 'dist/client/.vite/manifest.json';

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

export function buildIfStale() {
  const stale =
    !existsSync(manifest) ||
    statSync(manifest).mtimeMs < Math.max(newest('src/web'), newest('src/core'), statSync('vite.config.ts').mtimeMs);
  if (!stale) return;
  process.stdout.write('Building the browser bundle…\n');
  // Always a production build: under a test runner NODE_ENV is 'test', which would ship React's development build.
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--mode', 'production'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`vite build failed with exit code ${r.status}`);
}

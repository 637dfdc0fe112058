// `npm start`: builds what is missing or older than its sources (the browser bundle with Vite, the server
// with esbuild), then runs the compiled server (dist/server) with NODE_ENV=production in this same process
// (so SIGTERM and SIGINT reach it directly).
//
// `npm run dev` (or `node scripts/start.mjs --tsx`) runs the TypeScript sources through tsx instead, as do
// the tests (NODE_ENV=test): no server build, and the sources are what runs.
import { buildIfStale } from './build-if-stale.mjs';

const tsxMode = process.argv.includes('--tsx') || process.env.NODE_ENV === 'test';

try {
  buildIfStale();
} catch (e) {
  process.stderr.write(`tessera: ${e.message}\n`);
  process.exit(1);
}

if (tsxMode) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/server/main.ts');
  await main();
} else {
  process.env.NODE_ENV ??= 'production';
  const { ensureServerBuilt, SERVER_MAIN } = await import('./build-server.mjs');
  await ensureServerBuilt();
  const { main } = await import(new URL(`../${SERVER_MAIN}`, import.meta.url).href);
  await main();
}

// `npm start`: builds the browser bundle when it is missing or stale, then runs the server in this same
// process (so SIGTERM and SIGINT reach it directly).
import { register } from 'tsx/esm/api';
import { buildIfStale } from './build-if-stale.mjs';

try {
  buildIfStale();
} catch (e) {
  process.stderr.write(`tessera: ${e.message}\n`);
  process.exit(1);
}
register();
const { main } = await import('../src/server/main.ts');
await main();

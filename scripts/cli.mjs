// Runs one of the server's command-line programs (src/server/<name>.ts): `npm run seed`, `npm run backup`, `npm run owner-link`,
// `npm run restore`, `npm run media:to-bucket`. Like `npm start`, it runs the compiled JavaScript
// (dist/server, compiled first when missing or stale), so a production install (npm ci --omit=dev) needs
// no TypeScript tooling; under the test runner (NODE_ENV=test) or with --tsx it runs the sources through tsx.
const [name, ...rest] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  process.stderr.write('usage: node scripts/cli.mjs <program> [arguments]\n');
  process.exit(2);
}
const tsxMode = rest.includes('--tsx') || process.env.NODE_ENV === 'test';
// The program reads its own arguments from process.argv, after the script name.
process.argv = [process.argv[0], `src/server/${name}.ts`, ...rest.filter((a) => a !== '--tsx')];
if (tsxMode) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL(`../src/server/${name}.ts`, import.meta.url).href);
} else {
  process.env.NODE_ENV ??= 'production';
  const { ensureServerBuilt, SERVER_OUT } = await import('./build-server.mjs');
  await ensureServerBuilt();
  await import(new URL(`../${SERVER_OUT}/src/server/${name}.js`, import.meta.url).href);
}

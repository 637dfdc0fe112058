// `npm run build` (second half): compiles the server to JavaScript in dist/server with esbuild, file by file,
// keeping the folder layout of src/ (so paths taken from import.meta.url, like the migrations folder and
// the analytics worker, stay right). The browser bundle is built by Vite into dist/client beside it.
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SERVER_OUT = 'dist/server';
/** The compiled entry point; its presence means "a build is present". */
export const SERVER_MAIN = join(SERVER_OUT, 'src/server/main.js');
const STAMP = join(SERVER_OUT, '.built');

function files(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, keep));
    else if (keep(name)) out.push(p);
  }
  return out;
}

/** The newest modification time of the sources the compiled server is made of. */
export function newestSource() {
  let t = 0;
  for (const f of files('src', () => true)) t = Math.max(t, statSync(f).mtimeMs);
  return t;
}

/** True when dist/server is missing or older than a source file. */
export function serverStale() {
  return !existsSync(STAMP) || !existsSync(SERVER_MAIN) || statSync(STAMP).mtimeMs < newestSource();
}

const CANDIDATES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

const relativeImportsToJs = {
  name: 'relative-imports-to-js',
  setup(b) {
    b.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const spec = args.path;
      const base = spec.replace(/\.(js|jsx|mjs)$/, '');
      for (const c of [spec, ...CANDIDATES.map((x) => base + x)]) {
        const abs = join(args.resolveDir, c);
        if (existsSync(abs) && statSync(abs).isFile()) {
          if (/\.(ts|tsx)$/.test(abs)) {
            let rel = relative(args.resolveDir, abs).replace(/\.(ts|tsx)$/, '.js');
            if (!rel.startsWith('.')) rel = `./${rel}`;
            return { path: rel, external: true };
          }
          return { path: spec, external: true };
        }
      }
      return { errors: [{ text: `cannot resolve ${spec}` }] };
    });
  },
};

/** Compiles into a fresh folder and swaps it in, so a server starting meanwhile never sees half a build. */
export async function buildServer() {
  const tmp = `${SERVER_OUT}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const entryPoints = files('src', (n) => (n.endsWith('.ts') || n.endsWith('.tsx')) && !n.endsWith('.d.ts'));
  await build({
    entryPoints,
    outdir: tmp,
    outbase: '.',
    // Each file compiles on its own; "bundle" only so the plugin below can rewrite every relative import to
    // the .js file it becomes (the sources use the bundler style: no extension, or .js for a .ts file).
    bundle: true,
    packages: 'external',
    plugins: [relativeImportsToJs],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // What the server reads beside its code: SQL migrations and their journal, JSON data, the worker boot file.
  for (const f of files('src', (n) => !/\.(ts|tsx|css)$/.test(n))) {
    const to = join(tmp, f);
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(f, to);
  }
  writeFileSync(join(tmp, '.built'), new Date().toISOString());
  const old = `${SERVER_OUT}.old-${process.pid}`;
  if (existsSync(SERVER_OUT)) renameSync(SERVER_OUT, old);
  renameSync(tmp, SERVER_OUT);
  rmSync(old, { recursive: true, force: true });
  return entryPoints.length;
}

/** Compiles the server when it is missing or stale (npm start and the command-line programs). */
export async function ensureServerBuilt() {
  try {
    if (serverStale()) {
      process.stdout.write('Compiling the server…\n');
      await buildServer();
    }
  } catch (e) {
    process.stderr.write(`tessera: the server build failed: ${e.message}\n`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const n = await buildServer();
  process.stdout.write(`Compiled ${n} server files into ${relative('.', SERVER_OUT)} in ${Date.now() - started} ms\n`);
}

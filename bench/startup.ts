/**
 * Start-up time and memory: the compiled server (dist/server, what `npm start` runs) beside the TypeScript
 * sources through tsx (`npm run dev`, what production ran before issue 31).
 *
 * Each run starts `node scripts/start.mjs [--tsx]` on a seeded PGlite data folder, times it until /ready
 * answers 200, reads the process's resident memory (VmRSS) right then and after 20 page requests, and
 * stops it with SIGTERM. Runs alternate between the two modes; the medians are printed.
 *
 *   npm run bench:startup            (BENCH_RUNS=5 for more runs; default 3 each)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { freePort } from '../test/helpers/process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface Run {
  readyMs: number;
  rssMb: number;
  rssAfterMb: number;
}

async function once(mode: 'compiled' | 'tsx', dataDir: string): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs', ...(mode === 'tsx' ? ['--tsx'] : [])], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  let readyMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${mode} server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/ready`);
      if (r.status === 200) {
        readyMs = performance.now() - started;
        break;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const rss = rssMb(child.pid!);
  for (let i = 0; i < 20; i++) await (await fetch(`${base}/${i % 2 ? 'shop' : ''}`)).arrayBuffer();
  const rssAfter = rssMb(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rssMb: rss, rssAfterMb: rssAfter };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

buildIfStale();
await buildServer();
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-startup-'));
try {
  await once('compiled', dataDir); // the first start seeds the demo store; not measured
  const results: Record<'compiled' | 'tsx', Run[]> = { compiled: [], tsx: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['tsx', 'compiled'] as const) results[mode].push(await once(mode, dataDir));
  }
  console.log(`Start-up until /ready, PGlite, seeded demo store, median of ${RUNS} runs each (node ${process.version})`);
  console.log('mode       ready (ms)   RSS at ready (MB)   RSS after 20 pages (MB)');
  for (const mode of ['tsx', 'compiled'] as const) {
    const r = results[mode];
    console.log(
      `${mode.padEnd(10)} ${median(r.map((x) => x.readyMs))
        .toFixed(0)
        .padStart(10)}   ${median(r.map((x) => x.rssMb))
        .toFixed(1)
        .padStart(17)}   ${median(r.map((x) => x.rssAfterMb))
        .toFixed(1)
        .padStart(23)}`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

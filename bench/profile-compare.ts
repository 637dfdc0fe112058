/**
 * Compares two V8 CPU profiles (.cpuprofile) of the same load on two servers (say PGlite and PostgreSQL) by
 * self time per request: each function's sampled time divided by the requests its server answered while it
 * was profiled. Prints both figures in microseconds and their difference, the functions that differ most
 * first. Shares of a profile hide a difference that is spread over everything; times per request show it.
 *
 * Run: tsx bench/profile-compare.ts <a.cpuprofile> <requests in a> <b.cpuprofile> <requests in b> [top=25]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [fileA, requestsA, fileB, requestsB, topArg] = process.argv.slice(2);
if (!fileA || !fileB || !Number(requestsA) || !Number(requestsB)) {
  console.error('usage: tsx bench/profile-compare.ts <a.cpuprofile> <requests in a> <b.cpuprofile> <requests in b> [top]');
  process.exit(2);
}

/** Self time (µs) per function (name, file, line) of a profile, idle left out. */
function selfTime(file: string): Map<string, number> {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') return;
    const where = f.url.replace(/^file:\/\//, '').replace(/^.*\/(src|node_modules)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'}  ${where ? `${where}:${f.lineNumber + 1}` : ''}`.trim();
    out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  });
  return out;
}

const a = selfTime(fileA);
const b = selfTime(fileB);
const perA = Number(requestsA);
const perB = Number(requestsB);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => ({ k, x: (a.get(k) ?? 0) / perA, y: (b.get(k) ?? 0) / perB }));
const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
console.log(`busy µs per request: ${sum((r) => r.x).toFixed(0)} (a) against ${sum((r) => r.y).toFixed(0)} (b)\n`);
console.log('      a       b     a-b  function');
for (const r of rows.sort((p, q) => q.x - q.y - (p.x - p.y)).slice(0, Number(topArg ?? 25))) {
  console.log(`${r.x.toFixed(1).padStart(7)} ${r.y.toFixed(1).padStart(7)} ${(r.x - r.y).toFixed(1).padStart(7)}  ${r.k}`);
}

/**
 * Summarises a V8 CPU profile (.cpuprofile) as text: the functions with the most self time and the most
 * inclusive time (time with everything they called), each with its file and line, as shares of the
 * sampled time. Idle and garbage collection are listed as V8 names them.
 *
 * Run: tsx bench/profile-summary.ts <file.cpuprofile> [top=40]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Time per sample: the delta to the next sample.
const selfUs = new Map<number, number>();
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i + 1] ?? 0;
  selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + dt);
}
const label = (n: Node) => {
  const f = n.callFrame;
  const url = f.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*\/wt-[^/]+\//, '')
    .replace(/^\/work\/main\//, '');
  return `${f.functionName || '(anonymous)'}  ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
};
const self = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  total += us;
  if (n.callFrame.functionName === '(idle)') idle += us;
  self.set(label(n), (self.get(label(n)) ?? 0) + us);
  // Inclusive: each distinct function on the stack once.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at)!);
    if (seen.has(l)) continue;
    seen.add(l);
    incl.set(l, (incl.get(l) ?? 0) + us);
  }
}
const busy = total - idle;
const pct = (us: number) => `${((us / Math.max(1, busy)) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `${file}\nsampled ${(total / 1000).toFixed(0)} ms, of which busy ${(busy / 1000).toFixed(0)} ms (shares below are of busy time)\n`,
);
console.log('Self time');
for (const [l, us] of [...self]
  .filter(([l]) => !l.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`  ${pct(us)}  ${l}`);
console.log('\nInclusive time');
for (const [l, us] of [...incl]
  .filter(([l]) => !l.startsWith('(idle)') && !l.startsWith('(root)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`  ${pct(us)}  ${l}`);

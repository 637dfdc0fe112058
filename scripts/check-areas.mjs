// The server's areas (folders under src/server/) import each other one way and only through an area's
// index.ts. This check, run by `npm run check`, fails on a cycle between areas, on an import that reaches
// past another area's index.ts, on a shared top-level server file that imports an area, and on a server
// import of src/web other than the SSR entries (SSR_ENTRIES).
// scripts/areas-allowed.json holds the layering (`order`, bottom first: an area imports only areas below
// it) and the upward edges still waiting to be broken (`edges`); the check fails on any other upward
// import and when a listed edge is no longer needed, so the list only shrinks.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

// The only browser-side modules the server may import: the server-side rendering entries (islands and
// the admin login page). Shared rules and constants live in src/core, which both sides import.
export const SSR_ENTRIES = ['src/web/ssr', 'src/web/ssr-admin'];

/** Whether an import from src/server lands in src/web somewhere other than an SSR entry. */
export function isWebImport(root, fromFile, spec) {
  const rel = relative(root, normalize(join(dirname(join(root, fromFile)), spec)))
    .split(sep)
    .join('/');
  if (!rel.startsWith('src/web/')) return false;
  return !SSR_ENTRIES.includes(rel.replace(/\.(js|jsx|ts|tsx)$/, ''));
}

/** The relative module specifiers a file imports, statically, dynamically or in a type position. */
export function importsOf(text) {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  // `import('x').T` in a type position is not always seen by preProcessFile.
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return [...new Set(found)].filter((s) => s.startsWith('.'));
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Where an import lands, seen from src/server: { area, rest } for a file inside an area folder,
 * { top } for a file directly in src/server, null outside src/server.
 */
export function landing(serverDir, fromFile, spec) {
  const target = normalize(join(dirname(fromFile), spec));
  const rel = relative(serverDir, target);
  if (rel.startsWith('..') || rel === '') return null;
  const parts = rel.split(sep);
  if (parts.length === 1) return { top: parts[0].replace(/\.(js|ts|mjs)$/, '') };
  return { area: parts[0], rest: parts.slice(1).join('/') };
}

/** Whether a path inside an area is its door: index.ts (imported as index.js, index or the folder). */
export function isIndex(rest) {
  return rest === '' || /^index(\.(js|ts|mjs))?$/.test(rest);
}

/**
 * The area graph from files given as { area | top, file, imports: [{ spec, to }] } where `to` is the
 * landing of the import. Returns edges (Map area -> Map area -> [file]), reach-ins and tops' imports.
 */
export function areaGraph(files) {
  const edges = new Map();
  const reachIns = [];
  const topImports = new Map();
  for (const f of files) {
    for (const { spec, to } of f.imports) {
      if (!to) continue;
      if (f.top !== undefined) {
        if (!topImports.has(f.top)) topImports.set(f.top, { areas: new Set(), tops: new Set() });
        if (to.area !== undefined) topImports.get(f.top).areas.add(to.area);
        else topImports.get(f.top).tops.add(to.top);
        continue;
      }
      if (to.area === undefined || to.area === f.area) continue;
      if (!edges.has(f.area)) edges.set(f.area, new Map());
      const out = edges.get(f.area);
      if (!out.has(to.area)) out.set(to.area, []);
      out.get(to.area).push(f.file);
      if (!isIndex(to.rest)) reachIns.push({ file: f.file, spec, area: to.area });
    }
  }
  return { edges, reachIns, topImports };
}

/** Strongly connected components of more than one node (Tarjan), each as a sorted list. */
export function cyclicGroups(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || edges.get(v)?.has(v)) groups.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** One concrete cycle through the group's first area (shortest, by breadth-first search). */
export function cycleThrough(edges, group) {
  const inGroup = new Set(group);
  const start = group[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)) path.unshift(u);
        path.unshift(start);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** The top-level files that reach an area, directly or through other top-level files. */
function topsReachingAreas(topImports) {
  const reaches = new Map();
  const visit = (t, seen) => {
    if (reaches.has(t)) return reaches.get(t);
    if (seen.has(t)) return new Set();
    seen.add(t);
    const r = new Set(topImports.get(t)?.areas ?? []);
    for (const u of topImports.get(t)?.tops ?? []) for (const a of visit(u, seen)) r.add(a);
    reaches.set(t, r);
    return r;
  };
  for (const t of topImports.keys()) visit(t, new Set());
  return reaches;
}

/** Reads src/server under root and lists every breach of the rules; [] when the graph is clean. */
export function checkAreas(root, allowed = { order: null, edges: [] }) {
  const serverDir = join(root, 'src/server');
  const areas = readdirSync(serverDir).filter((n) => statSync(join(serverDir, n)).isDirectory());
  const files = [];
  const areaUsesTop = new Map();
  for (const name of readdirSync(serverDir)) {
    const p = join(serverDir, name);
    const list = statSync(p).isDirectory() ? walk(p) : SOURCE.test(name) ? [p] : [];
    for (const file of list) {
      const imports = importsOf(readFileSync(file, 'utf8')).map((spec) => ({ spec, to: landing(serverDir, file, spec) }));
      const where = statSync(p).isDirectory() ? { area: name } : { top: name.replace(/\.(ts|mts|mjs|js)$/, '') };
      files.push({ ...where, file: relative(root, file), imports });
      if (where.area)
        for (const i of imports) if (i.to?.top) areaUsesTop.set(i.to.top, [...(areaUsesTop.get(i.to.top) ?? []), relative(root, file)]);
    }
  }
  const { edges, reachIns, topImports } = areaGraph(files);
  const problems = [];
  const allowedEdges = new Set(allowed.edges);
  for (const e of allowedEdges) {
    const [a, b] = e.split(' -> ');
    if (!edges.get(a)?.has(b)) problems.push(`scripts/areas-allowed.json lists ${e}, which no file imports any more: remove it`);
  }
  if (allowed.order) {
    const pos = new Map(allowed.order.map((a, i) => [a, i]));
    for (const a of areas)
      if (!pos.has(a)) problems.push(`area ${a} is not in the order of scripts/areas-allowed.json: add it at its layer`);
    for (const [a, out] of edges) {
      for (const [b, from] of out) {
        if (pos.get(b) > pos.get(a) && !allowedEdges.has(`${a} -> ${b}`))
          problems.push(
            `${from[0]} imports area ${b}, which is above ${a} in the area order: move what it needs down, or hand it in from app.ts`,
          );
      }
    }
  }
  const rest = new Map([...edges].map(([a, out]) => [a, new Map([...out].filter(([b]) => !allowedEdges.has(`${a} -> ${b}`)))]));
  for (const group of cyclicGroups(rest)) {
    const cycle = cycleThrough(rest, group);
    const via = cycle.slice(0, -1).map((a, i) => `  ${a} -> ${cycle[i + 1]} (${rest.get(a).get(cycle[i + 1])[0]})`);
    problems.push(
      `cycle between areas: ${cycle.join(' -> ')}\n${via.join('\n')}${group.length > cycle.length - 1 ? `\n  (the areas ${group.join(', ')} all reach each other)` : ''}`,
    );
  }
  for (const f of files) {
    for (const { spec } of f.imports) {
      if (isWebImport(root, f.file, spec))
        problems.push(
          `${f.file} imports ${spec}: the server imports src/web only through ${SSR_ENTRIES.join(' and ')}; move the shared rule or constant to src/core`,
        );
    }
  }
  for (const r of reachIns)
    problems.push(`${r.file} imports ${r.spec}: past the index.ts of area ${r.area}; import '../${r.area}/index.js'`);
  const reaching = topsReachingAreas(topImports);
  for (const [top, users] of areaUsesTop) {
    const into = [...(reaching.get(top) ?? [])];
    if (into.length) problems.push(`src/server/${top}.ts is shared by areas (${users[0]}) but imports the area(s) ${into.join(', ')}`);
  }
  return { areas, edges, problems };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const root = process.cwd();
  const allowedPath = join(root, 'scripts/areas-allowed.json');
  const allowed = existsSync(allowedPath) ? JSON.parse(readFileSync(allowedPath, 'utf8')) : { edges: [] };
  const { areas, edges, problems } = checkAreas(root, allowed);
  if (process.argv.includes('--graph')) {
    for (const a of areas.sort()) console.log(`${a} -> ${[...(edges.get(a)?.keys() ?? [])].sort().join(', ')}`);
  }
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`\ncheck-areas: ${problems.length} problem(s) in the server's area graph`);
    process.exit(1);
  }
  const upward = allowed.edges.length
    ? `no cycle but the ${allowed.edges.length} upward edge(s) still listed in scripts/areas-allowed.json`
    : 'every import downward in the area order, no cycle';
  console.log(`check-areas: ${areas.length} areas, each entered through its index.ts, ${upward}`);
}

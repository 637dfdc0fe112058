import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAreas, cyclicGroups, cycleThrough, importsOf, isIndex } from '../../../scripts/check-areas.mjs';

/** A small src/server tree: files by path (relative to src/server) with their text. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'areas-'));
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, 'src/server', path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

const graph = (o: Record<string, string[]>) => new Map(Object.entries(o).map(([a, bs]) => [a, new Map(bs.map((b) => [b, [`${a}.ts`]]))]));

describe('the area graph check', () => {
  it('finds the areas that reach each other and one concrete cycle through them', () => {
    const edges = graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] });
    expect(cyclicGroups(edges)).toEqual([['a', 'b', 'c']]);
    expect(cycleThrough(edges, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a']);
    expect(cyclicGroups(graph({ a: ['b'], b: ['c'], d: ['a'] }))).toEqual([]);
  });

  it('reads static, re-exported, dynamic and type-position imports, not commented ones', () => {
    const text =
      "import { x } from './x.js';\nexport { y } from '../y/index.js';\n// import { z } from '../z/deep.js';\ntype T = import('../t/deep.js').T;\nconst m = () => import('../m/index.js');\nimport 'fastify';";
    expect(importsOf(text).sort()).toEqual(['../m/index.js', '../t/deep.js', '../y/index.js', './x.js']);
    expect(isIndex('index.js')).toBe(true);
    expect(isIndex('stripe/index.js')).toBe(false);
  });

  it('passes a one-way tree and fails on a cycle, a reach-in, an upward import and a shared file that imports an area', () => {
    const clean = fixture({
      'low/index.ts': "export { helper } from './helper.js';",
      'low/helper.ts': "import { LIMIT } from '../config.js';\nexport const helper = LIMIT;",
      'high/index.ts': "import { helper } from '../low/index.js';\nexport const top = helper;",
      'config.ts': 'export const LIMIT = 1;',
    });
    expect(checkAreas(clean, { order: ['low', 'high'], edges: [] }).problems).toEqual([]);

    const broken = fixture({
      'low/index.ts': "import { top } from '../high/index.js';\nexport const helper = top;",
      'low/helper.ts': "import { LIMIT } from '../config.js';\nexport const h = LIMIT;",
      'high/index.ts': "import { h } from '../low/helper.js';\nexport const top = h;",
      'config.ts': "import { top } from './high/index.js';\nexport const LIMIT = top;",
    });
    const problems = checkAreas(broken, { order: ['low', 'high'], edges: [] }).problems.join('\n');
    expect(problems).toContain('cycle between areas: high -> low -> high');
    expect(problems).toContain('src/server/high/index.ts imports ../low/helper.js: past the index.ts of area low');
    expect(problems).toContain('src/server/low/index.ts imports area high, which is above low in the area order');
    expect(problems).toContain('src/server/config.ts is shared by areas (src/server/low/helper.ts) but imports the area(s) high');

    // A listed upward edge is tolerated; a listed edge that no file needs any more is not.
    expect(checkAreas(broken, { order: ['low', 'high'], edges: ['low -> high'] }).problems.join('\n')).not.toContain('cycle between areas');
    expect(checkAreas(clean, { order: ['low', 'high'], edges: ['low -> high'] }).problems).toEqual([
      'scripts/areas-allowed.json lists low -> high, which no file imports any more: remove it',
    ]);
  });

  it('lets the server import src/web only through the SSR entries', () => {
    const root = fixture({
      'pages/render.ts':
        "import { renderIsland } from '../../web/ssr.js';\nimport { renderLoginPage } from '../../web/ssr-admin.js';\nexport const r = [renderIsland, renderLoginPage];",
      'pages/cache.ts': "import { ID } from '../../web/client/tracker-cookies.js';\nexport const c = ID;",
      'pages/index.ts': "export { r } from './render.js';",
    });
    expect(checkAreas(root, { order: ['pages'], edges: [] }).problems).toEqual([
      'src/server/pages/cache.ts imports ../../web/client/tracker-cookies.js: the server imports src/web only through src/web/ssr and src/web/ssr-admin; move the shared rule or constant to src/core',
    ]);
  });
});

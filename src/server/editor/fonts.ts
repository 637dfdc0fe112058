/**
 * The font library served from the site itself (issue #27): the @font-face rules of the families and
 * weights the site styles use, read from the installed `@fontsource` packages' own stylesheets with their
 * file addresses pointed at /site-fonts/, and the route that serves those files. No third-party font host:
 * the addresses are same-origin, and the package version is part of them so they can be cached for a year.
 */
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { resolveInside } from '../files-inside.js';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { FONT_LIBRARY, fontFacesNeeded, nearestWeight } from '../../core/font-library.js';
import { FONT_USAGE_CATEGORIES, type SiteStyles } from '../../core/site-styles.js';

const require = createRequire(import.meta.url);

interface Package {
  dir: string;
  version: string;
}

const packages = new Map<string, Package | null>();

/** The installed package of a library family (null when it is not installed). */
function fontPackage(id: string): Package | null {
  if (packages.has(id)) return packages.get(id)!;
  let pkg: Package | null = null;
  try {
    // The packages export their stylesheets ('./*.css'), not package.json; every family ships 400.
    const dir = dirname(require.resolve(`@fontsource/${id}/400.css`));
    const version = String((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0');
    pkg = { dir, version };
  } catch {
    pkg = null;
  }
  packages.set(id, pkg);
  return pkg;
}

const faces = new Map<string, string>();

/**
 * The @font-face rules of one family at one weight (normal style): the package's own rules, one per
 * character subset with its unicode-range, keeping the woff2 source only (every browser the site
 * supports reads it), its address under /site-fonts/<id>/<version>/.
 */
export function fontFaceCss(id: string, weight: number): string {
  const key = `${id}:${weight}`;
  const hit = faces.get(key);
  if (hit !== undefined) return hit;
  const pkg = fontPackage(id);
  const file = pkg ? join(pkg.dir, `${weight}.css`) : '';
  let css = '';
  if (pkg && existsSync(file)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[^*]*\*\//g, '');
    const rules: string[] = [];
    for (const block of text.split('@font-face').slice(1)) {
      const body = block.slice(block.indexOf('{') + 1, block.indexOf('}'));
      const woff2 = /url\(\.\/files\/([a-z0-9-]+\.woff2)\)/.exec(body);
      if (!woff2) continue;
      const kept = body
        .split(';')
        .map((d) => d.trim().replace(/^([a-z-]+)\s*:\s*/, '$1:'))
        .filter((d) => d && !d.startsWith('src:'));
      kept.push(`src:url(/site-fonts/${id}/${pkg.version}/${woff2[1]}) format('woff2')`);
      rules.push(`@font-face{${kept.join(';')}}`);
    }
    css = rules.join('\n');
  }
  faces.set(key, css);
  return css;
}

/** Which families and weights the styles use: each usage category's family at its weight, and body text bold too. */
export function styleFontUses(styles: SiteStyles): Array<{ family: string; weight: number }> {
  const u = styles.fonts.usageCategories;
  return [...FONT_USAGE_CATEGORIES.map((c) => ({ family: u[c].family, weight: u[c].weight })), { family: u.body.family, weight: 700 }];
}

/** The @font-face rules for the library families (and only those weights) the styles use. */
export function siteFontFacesCss(styles: SiteStyles): string {
  const out: string[] = [];
  for (const [id, weights] of fontFacesNeeded(styleFontUses(styles))) for (const w of weights) out.push(fontFaceCss(id, w));
  return out.filter(Boolean).join('\n');
}

/**
 * Every family of the library at 400 and 700, plus the asked `<id>-<weight>` pairs (the weights chosen
 * on screen), for the previews of Site styles; the browser downloads only the files a preview shows.
 */
export function libraryPreviewCss(extra: string[] = []): string {
  const pairs = new Set<string>(FONT_LIBRARY.flatMap((f) => [`${f.id}:400`, `${f.id}:${nearestWeight(f, 700)}`]));
  for (const e of extra.slice(0, 12)) {
    const m = /^([a-z0-9-]{1,40})-([1-9]00)$/.exec(e);
    const f = m ? FONT_LIBRARY.find((x) => x.id === m[1]) : undefined;
    if (f && m) pairs.add(`${f.id}:${nearestWeight(f, Number(m[2]))}`);
  }
  return [...pairs].map((p) => fontFaceCss(p.split(':')[0]!, Number(p.split(':')[1]))).join('\n');
}

const FILE = /^[a-z0-9-]{1,80}\.woff2$/;

/** GET /site-fonts/<family>/<version>/<file>.woff2: a library family's file, cached for a year (the version is in the address). */
export function fontRoutes(app: FastifyInstance) {
  app.get('/site-fonts/:id/:version/:file', async (req, reply) => {
    const { id, version, file } = req.params as { id: string; version: string; file: string };
    const font = FONT_LIBRARY.find((f) => f.id === id);
    const pkg = font ? fontPackage(font.id) : null;
    if (!font || !pkg || version !== pkg.version || !FILE.test(file) || !file.startsWith(`${font.id}-`)) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    let body: Buffer;
    try {
      const real = resolveInside(pkg.dir, `files/${file}`);
      if (!real) throw new Error('not a file of the package');
      body = await readFile(real);
    } catch {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('access-control-allow-origin', '*')
      .type('font/woff2')
      .send(body);
  });
  /** The library's preview faces for /config/styles (every family at 400). */
  app.get('/site-fonts/library.css', async (req, reply) => {
    const w = (req.query as Record<string, unknown>).w;
    const extra = typeof w === 'string' && w.length <= 300 ? w.split(',') : [];
    return reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(libraryPreviewCss(extra));
  });
}

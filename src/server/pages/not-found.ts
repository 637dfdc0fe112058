/**
 * What the not-found answer decides before it draws the 404 page: a missing file gets a short plain 404,
 * and an address that differs from a page's only by a trailing slash or letter case is sent there (301).
 * The favicon lives here too: `/favicon.ico` is asked for by every browser and crawler.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Folders that hold files, never pages. */
const FILE_FOLDERS = ['/assets/', '/static/', '/theme/', '/scripts/', '/demo-media/', '/uploads/', '/site-fonts/', '/tessera/'];
/** Extensions of files a page address never ends in. */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  'js mjs cjs css map png jpg jpeg gif svg webp avif ico bmp tif tiff woff woff2 ttf otf eot json xml txt pdf zip gz br mp3 mp4 m4a wav ogg webm mov webmanifest wasm php asp aspx jsp cgi env ini bak sql'.split(
    ' ',
  ),
);

/** Whether a missing path names a file (an asset folder, or a file extension): answered with a short plain 404. */
export function isFilePath(path: string): boolean {
  const lower = path.toLowerCase();
  if (FILE_FOLDERS.some((f) => lower.startsWith(f))) return true;
  const slash = lower.lastIndexOf('/');
  const dot = lower.lastIndexOf('.');
  return dot > slash + 1 && FILE_EXTENSIONS.has(lower.slice(dot + 1));
}

/** The plain 404 of a missing file: a few bytes, no page around it. */
export function sendFileMissing(reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
}

/**
 * The segments of a path that may differ from a page's address only by trailing slashes or letter case,
 * or null: nothing to normalise (no trailing slash, no capital), or not a plain path (an empty segment
 * inside it, such as the `//host` a browser would read as another site, is never normalised).
 */
export function looseSegments(path: string): string[] | null {
  if (path.length < 2 || path.charCodeAt(0) !== 47) return null;
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  const trimmed = path.slice(0, end);
  if (end === path.length && trimmed === trimmed.toLowerCase()) return null;
  const segments = trimmed.slice(1).split('/');
  if (segments.some((s) => s === '')) return null;
  return segments;
}

/** Whether `location` is a path on this site (one leading slash, no backslash): the only redirect target allowed. */
export function isSameSitePath(location: string): boolean {
  return location.startsWith('/') && !location.startsWith('//') && !location.includes('\\');
}

/** The owner's favicon address when it is a path on this site or an http(s) address, else null. */
function ownerFavicon(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  if (isSameSitePath(url)) return url;
  return /^https?:\/\/[^/\\]/i.test(url) ? url : null;
}

/**
 * `/favicon.ico`: the owner's icon (a redirect to it), else the theme's SVG icon, else an empty 404. Never
 * the HTML 404 page.
 */
export function faviconRoute(app: FastifyInstance, assetsDir: string): void {
  let themeIcon: Promise<Buffer | null> | null = null;
  app.get('/favicon.ico', async (_req, reply) => {
    const site = await app.services.websites.get();
    const own = ownerFavicon((site.settings as Record<string, unknown>).faviconUrl);
    if (own && own !== '/favicon.ico') return reply.header('cache-control', 'public, max-age=3600').redirect(own, 302);
    themeIcon ??= readFile(join(assetsDir, 'favicon.svg')).catch(() => null);
    const icon = await themeIcon;
    if (!icon) return reply.status(404).header('cache-control', 'public, max-age=300').send();
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(icon);
  });
}

/**
 * Files of a folder that holds someone else's files (a developer template cloned from a third party's git
 * repository, a theme folder, the media folders): every read of such a file by a name that comes from a
 * request or from the folder's own content goes through `resolveInside`, so a symlink in the folder (git
 * stores them) cannot make Tessera read or serve a file outside it (`assets/env.txt -> /proc/self/environ`).
 *
 * A name is resolved with realpath (every link followed) and must land in the folder's own real path, on
 * a regular file outside /proc, /sys and /dev: links that stay inside the folder work, anything else
 * (a link out, a link to a folder, a chain of links that ends outside, a device, a FIFO) is as if the file
 * were missing. The file is then opened without following a link at its last step (O_NOFOLLOW) and checked
 * again on the open descriptor.
 */
import { closeSync, constants, createReadStream, fstatSync, openSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import type { FastifyReply } from 'fastify';

/** Folders whose files are never served or read, whatever links lead there. */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

/**
 * Sent with every file of a template or theme folder: never sniffed into another type, and opened on its
 * own (an SVG with a script, an HTML file) it runs nothing and reaches nothing (a sandboxed document).
 */
export const FOLDER_FILE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self'; sandbox",
};

/** The types of the files served from such folders; a name of any other type is not served. */
const FOLDER_FILE_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content type a folder file is served with, or null when files of its type are not served. */
export function folderFileType(name: string): string | null {
  return FOLDER_FILE_TYPES[extname(name).toLowerCase()] ?? null;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function within(realRoot: string, real: string): boolean {
  if (SYSTEM_DIRS.some((d) => real === d || real.startsWith(`${d}/`))) return false;
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** A relative name's parts, or null when it could leave the folder ('..', an absolute path, a NUL). */
function safeParts(rel: string): string[] | null {
  if (rel.includes('\0')) return null;
  const parts = rel
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return null;
  return parts;
}

/**
 * The real path of the regular file `rel` names inside `root`, or null: missing, outside the folder's real
 * path once every link is followed, under /proc, /sys or /dev, or not a regular file.
 */
export function resolveInside(root: string, rel: string): string | null {
  const parts = safeParts(rel);
  const realRoot = parts ? realOrNull(root) : null;
  if (!parts || !realRoot) return null;
  const real = realOrNull(join(realRoot, ...parts));
  if (!real || real === realRoot || !within(realRoot, real)) return null;
  try {
    return statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** The real path of the folder `rel` names inside `root` (rel '' is the root itself), or null. */
export function folderInside(root: string, rel: string): string | null {
  const realRoot = realOrNull(root);
  if (!realRoot) return null;
  if (rel === '') return realRoot;
  const parts = safeParts(rel);
  const real = parts ? realOrNull(join(realRoot, ...parts)) : null;
  if (!real || !within(realRoot, real)) return null;
  try {
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** Opens the file `rel` names inside `root` for reading (see resolveInside): its descriptor and size, or null. */
export function openInside(root: string, rel: string): { fd: number; size: number } | null {
  const real = resolveInside(root, rel);
  if (!real) return null;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile()) return { fd, size: st.size };
  } catch {
    /* closed below */
  }
  closeSync(fd);
  return null;
}

/** The text of the file `rel` names inside `root` (see resolveInside), or null. */
export function readInside(root: string, rel: string): string | null {
  const opened = openInside(root, rel);
  if (!opened) return null;
  try {
    return readFileSync(opened.fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}

/** The names of the regular files directly in the folder `sub` of `root` (links only when they resolve inside). */
export function filesInside(root: string, sub = ''): string[] {
  const dir = folderInside(root, sub);
  if (!dir) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => resolveInside(root, sub ? `${sub}/${n}` : n) !== null).sort();
}

/**
 * Every regular file under `root` by its relative path ('/'-separated), walking real folders only: a link to
 * a folder is not followed (no loops, nothing outside), a link to a file only when it resolves inside.
 */
export function walkInside(root: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number) => {
    const dir = folderInside(root, rel);
    if (!dir || depth > 32) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (skip(path)) continue;
      if (e.isDirectory()) walk(path, depth + 1);
      else if ((e.isFile() || e.isSymbolicLink()) && resolveInside(root, path)) out.push(path);
    }
  };
  walk('', 0);
  return out.sort();
}

/**
 * Sends the file `rel` names inside `root` with its type and FOLDER_FILE_HEADERS, or answers 404 for
 * anything resolveInside refuses. `type` is null for a name whose type is not served.
 */
export function sendInside(reply: FastifyReply, root: string, rel: string, type: string | null, maxAgeSeconds: number) {
  let name: string;
  try {
    name = decodeURIComponent(rel);
  } catch {
    name = '';
  }
  const opened = type && name ? openInside(root, name) : null;
  if (!opened || !type) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
  reply
    .headers(FOLDER_FILE_HEADERS)
    .header('cache-control', `public, max-age=${maxAgeSeconds}`)
    .header('content-length', String(opened.size));
  return reply.type(type).send(createReadStream('', { fd: opened.fd, autoClose: true }));
}

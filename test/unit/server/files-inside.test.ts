/**
 * files-inside.ts: a name inside a folder resolves to a regular file of the folder's real path or to nothing,
 * whatever links the folder holds (a developer template comes from a third party's git repository).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesInside, folderInside, openInside, readInside, resolveInside, walkInside } from '../../../src/server/files-inside.js';
import { LocalMediaStore } from '../../../src/server/storage/media-store.js';
import { ImageVariants } from '../../../src/server/images/variants.js';

describe('files-inside', () => {
  let base: string;
  let root: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'tessera-inside-')));
    root = join(base, 'tpl');
    mkdirSync(join(base, 'outside', 'deep'), { recursive: true });
    writeFileSync(join(base, 'outside', 'secret.txt'), 'SECRET');
    writeFileSync(join(base, 'outside', 'deep', 'secret.txt'), 'SECRET');
    // A sibling whose name starts with the folder's: not inside it.
    mkdirSync(join(base, 'tpl-evil'));
    writeFileSync(join(base, 'tpl-evil', 'x.txt'), 'SECRET');
    mkdirSync(join(root, 'assets', 'sub'), { recursive: true });
    writeFileSync(join(root, 'assets', 'ok.txt'), 'OK');
    writeFileSync(join(root, 'top.txt'), 'TOP');
    writeFileSync(join(root, 'assets', 'sub', 'deeper.txt'), 'DEEPER');
    symlinkSync('ok.txt', join(root, 'assets', 'inside.txt'));
    symlinkSync('sub', join(root, 'assets', 'inside-dir'));
    symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'assets', 'out.txt'));
    symlinkSync('../../outside/secret.txt', join(root, 'assets', 'out-relative.txt'));
    symlinkSync('/proc/self/environ', join(root, 'assets', 'env.txt'));
    symlinkSync('/dev/zero', join(root, 'assets', 'zero.txt'));
    symlinkSync(join(base, 'outside'), join(root, 'assets', 'dir'));
    symlinkSync('chain-2.txt', join(root, 'assets', 'chain-1.txt'));
    symlinkSync('chain-3.txt', join(root, 'assets', 'chain-2.txt'));
    symlinkSync('../../outside/secret.txt', join(root, 'assets', 'chain-3.txt'));
    symlinkSync('../../tpl-evil/x.txt', join(root, 'assets', 'prefix.txt'));
    symlinkSync('loop-b.txt', join(root, 'assets', 'loop-a.txt'));
    symlinkSync('loop-a.txt', join(root, 'assets', 'loop-b.txt'));
    symlinkSync('..', join(root, 'assets', 'up'));
    symlinkSync(join(base, 'outside'), join(root, 'linked-folder'));
    execFileSync('mkfifo', [join(root, 'assets', 'pipe.txt')]);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('resolves files of the folder, and links that stay inside it', () => {
    expect(resolveInside(root, 'assets/ok.txt')).toBe(join(root, 'assets', 'ok.txt'));
    expect(resolveInside(root, 'assets/inside.txt')).toBe(join(root, 'assets', 'ok.txt'));
    expect(resolveInside(root, 'assets/inside-dir/deeper.txt')).toBe(join(root, 'assets', 'sub', 'deeper.txt'));
    expect(readInside(root, 'assets/inside.txt')).toBe('OK');
  });

  it('refuses links out of the folder, to /proc and devices, to folders, chains, loops, FIFOs and traversal', () => {
    for (const rel of [
      'assets/out.txt',
      'assets/out-relative.txt',
      'assets/env.txt',
      'assets/zero.txt',
      'assets/dir',
      'assets/dir/secret.txt',
      'assets/dir/deep/secret.txt',
      'assets/chain-1.txt',
      'assets/prefix.txt',
      'assets/loop-a.txt',
      'assets/pipe.txt',
      'assets/sub',
      'assets/up/assets/ok.txt/..',
      'linked-folder/secret.txt',
      '../outside/secret.txt',
      'assets/../../outside/secret.txt',
      'assets\\..\\..\\outside\\secret.txt',
      '/etc/passwd',
      'assets/ok.txt\0.png',
      '',
    ]) {
      expect(resolveInside(root, rel), rel).toBeNull();
      expect(readInside(root, rel), rel).toBeNull();
      expect(openInside(root, rel), rel).toBeNull();
    }
    // Inside the assets folder as root, '..' through a link is outside too.
    expect(resolveInside(join(root, 'assets'), 'up/top.txt')).toBeNull();
    expect(resolveInside(root, 'top.txt')).toBe(join(root, 'top.txt'));
  });

  it('opens a regular file with its size', () => {
    const opened = openInside(root, 'assets/ok.txt');
    expect(opened?.size).toBe(2);
    closeSync(opened!.fd);
  });

  it('lists and walks only what resolves inside, never through a link to a folder', () => {
    expect(filesInside(root, 'assets')).toEqual(['inside.txt', 'ok.txt']);
    expect(filesInside(root, 'linked-folder')).toEqual([]);
    expect(folderInside(root, 'linked-folder')).toBeNull();
    expect(folderInside(root, 'assets/inside-dir')).toBe(join(root, 'assets', 'sub'));
    expect(walkInside(root)).toEqual(['assets/inside.txt', 'assets/ok.txt', 'assets/sub/deeper.txt', 'top.txt']);
  });

  it('the local media store and the image variants read no file a link leads out to (the same helper)', async () => {
    const store = new LocalMediaStore(join(root, 'assets'));
    expect(await store.size('ok.txt')).toBe(2);
    expect(await store.size('inside.txt')).toBe(2);
    for (const key of ['out.txt', 'env.txt', 'chain-1.txt', 'dir/secret.txt', 'zero.txt', 'pipe.txt']) {
      expect(await store.size(key), key).toBeNull();
      expect(await store.get(key), key).toBeNull();
    }
    const got = await store.get('ok.txt');
    const chunks: Buffer[] = [];
    for await (const c of got!.body as AsyncIterable<Buffer>) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('OK');
    writeFileSync(join(base, 'outside', 'secret.png'), 'SECRET');
    symlinkSync('../../outside/secret.png', join(root, 'assets', 'out.png'));
    symlinkSync('../../outside', join(root, 'assets', 'dir-png'));
    const variants = new ImageVariants({ '/m/': join(root, 'assets') }, join(base, 'cache'));
    for (const path of ['/m/out.png', '/m/dir-png/secret.png']) expect(() => variants.resolveSource(path), path).toThrow('Not found');
  });
});

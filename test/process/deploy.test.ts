/**
 * A deploy, as docs/DEPLOY.md describes it (issue 31): a copy of the project's files in a fresh folder,
 * `npm ci --omit=dev` (its own node_modules: the shared one is never touched), then `npm start`, which
 * builds the browser bundle and compiles the server, and serves the demo with NODE_ENV=production from
 * dist/server. Slow (a real install), so it is one test.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitFor } from '../helpers/process.js';

const root = process.cwd();
let folder: string | null = null;
let child: ChildProcess | null = null;

afterAll(async () => {
  // Still running only if it has neither exited nor been ended by a signal (a signalled child's exitCode stays
  // null, and its 'exit' event has already fired).
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((r) => child!.once('exit', r));
    try {
      process.kill(-child.pid!, 'SIGTERM');
      await gone;
    } catch {
      // the process group is already gone
    }
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('deploy', () => {
  it(
    'npm ci --omit=dev, then npm start builds, compiles the server and serves the demo in production mode',
    { timeout: 600_000 },
    async () => {
      folder = mkdtempSync(join(tmpdir(), 'tessera-deploy-'));
      // The project's files as a clone has them (tracked and new, never ignored ones such as dist/ or data/).
      const list = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
      expect(list.status).toBe(0);
      for (const f of list.stdout.split('\0').filter(Boolean)) {
        if (!existsSync(join(root, f))) continue; // deleted in the working tree
        mkdirSync(dirname(join(folder, f)), { recursive: true });
        cpSync(join(root, f), join(folder, f));
      }
      expect(existsSync(join(folder, 'dist'))).toBe(false);

      const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
        timeout: 400_000,
      });
      expect(install.status, install.stderr).toBe(0);
      // No development tooling in a production install.
      for (const dev of ['vitest', 'typescript', 'eslint', 'playwright-core', 's3rver'])
        expect(existsSync(join(folder, 'node_modules', dev)), dev).toBe(false);

      const port = await freePort();
      let out = '';
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        PORT: String(port),
        DATA_DIR: join(folder, 'data'),
        LOG_LEVEL: 'warn',
      };
      delete env.NODE_ENV; // as in a shell: npm start sets production itself
      delete env.DATABASE_URL;
      child = spawn('npm', ['start'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      await waitFor(() => out.includes('Tessera is serving') || child!.exitCode !== null, 300_000, 'the deployed server');
      expect(out).toContain('Compiling the server');
      expect(out, out).toContain(`Tessera is serving http://127.0.0.1:${port}`);
      expect(existsSync(join(folder, 'dist/server/src/server/main.js'))).toBe(true);
      expect(existsSync(join(folder, 'dist/client/.vite/manifest.json'))).toBe(true);

      const base = `http://127.0.0.1:${port}`;
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('Fernhill');
      expect(html).toMatch(/<script type="module" src="\/assets\/[^"]+\.js"/);
      // Production mode: with no PUBLIC_URL the server warns that emailed links point at this machine (email-origin.ts does so only under NODE_ENV=production).
      expect(out).toContain('Neither PUBLIC_URL nor a site address');

      // SIGTERM to npm and the server (their own process group): the server drains and exits.
      const gone = new Promise<void>((r) => child!.once('exit', () => r()));
      process.kill(-child.pid!, 'SIGTERM');
      await gone;
    },
  );
});

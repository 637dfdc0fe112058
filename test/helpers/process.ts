import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = 'tessera-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs `npm start`'s script as a child process with the given environment. */
export function startServer(env: Record<string, string>): Started {
  let out = '';
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Waits until `pred` holds (checked every 50 ms), failing after `ms` with what was awaited. */
export async function waitFor(pred: () => boolean, ms: number, what: string): Promise<void> {
  await vi.waitUntil(pred, { timeout: ms, interval: 50 }).catch(() => {
    throw new Error(`timed out waiting for ${what}`);
  });
}

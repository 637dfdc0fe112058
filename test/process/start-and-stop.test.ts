import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { freePort, startServer, tempDir, waitFor, type Started } from '../helpers/process.js';

const started: Started[] = [];
afterAll(() => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => (res.complete ? resolve({ status: res.statusCode ?? 0, bytes }) : reject(new Error('incomplete response'))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('the server process', () => {
  it('refuses a bad configuration value, naming the variable', async () => {
    const s = startServer({ PORT: 'not-a-port', DATA_DIR: tempDir() });
    started.push(s);
    expect(await s.exited).not.toBe(0);
    expect(s.output()).toContain('PORT="not-a-port"');
  });

  it('locks its data folder, serves, and drains a burst on SIGTERM before exiting 0', async () => {
    const dir = tempDir();
    const port = await freePort();
    const first = startServer({ PORT: String(port), DATA_DIR: dir });
    started.push(first);
    await waitFor(() => first.output().includes('Tessera is serving'), 60_000, 'the first server');
    expect(first.output()).toMatch(/one-time link[\s\S]*\/config\/login\/link\?token=/);

    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dir });
    started.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another Tessera process');

    const agent = new http.Agent({ keepAlive: false, maxSockets: 200 });
    expect((await get(port, '/', agent)).status).toBe(200);

    // 200 requests in flight; SIGTERM lands while they are being served.
    const results: Array<{ ok: boolean; status?: number; err?: string }> = [];
    const burst = Array.from({ length: 200 }, (_, i) =>
      get(port, i % 2 ? '/shop/p/linen-camp-shirt' : '/', agent).then(
        (r) => results.push({ ok: true, status: r.status }),
        (e: NodeJS.ErrnoException) => results.push({ ok: false, err: e.code ?? e.message }),
      ),
    );
    await waitFor(() => results.length >= 20, 30_000, 'the first responses');
    first.child.kill('SIGTERM');
    await Promise.all(burst);
    const code = await first.exited;
    expect(code).toBe(0);
    const served = results.filter((r) => r.ok);
    // Every request the server accepted got a complete 200; the rest were refused at connect time.
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect(served.every((r) => r.status === 200)).toBe(true);
    const failures = results.filter((r) => !r.ok).map((r) => r.err);
    expect(failures.filter((e) => e !== 'ECONNREFUSED')).toEqual([]);
    agent.destroy();
  }, 120_000);
});

/**
 * kill -9 while analytics events are buffered: every event the server acknowledged (202) is in the
 * database after a restart (the ingest journal in DATA_DIR is replayed), on PGlite and on PostgreSQL.
 */
import { describe, expect, it, vi } from 'vitest';
import { freePort, tempDir } from '../helpers/process.js';
import { serverProcesses, withScratchPostgres } from '../helpers/crash.js';
import { HttpVisitor } from '../helpers/http-visitor.js';

const servers = serverProcesses();

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const beacon = (n: number) =>
  JSON.stringify(
    Array.from({ length: 20 }, (_, i) => ({
      eventSchemaName: 'add_to_cart',
      eventContent: JSON.stringify({ page_path: '/shop', analytics_id: `crash-${n}-${i}`, cart_value: 100 }),
    })),
  );

/** add_to_cart events the owner's dashboard counts today. */
async function counted(base: string): Promise<number> {
  const owner = new HttpVisitor([base]);
  await owner.call('GET', '/health', undefined, base);
  expect((await owner.call('POST', '/api/auth/login', OWNER, base)).status).toBe(200);
  const day = new Date().toISOString().slice(0, 10);
  const d = (await (await owner.call('GET', `/api/analytics/dashboard?from=${day}&to=${day}`, undefined, base)).json()) as {
    funnel: Array<{ step: string; events: number }>;
  };
  return d.funnel.find((f) => f.step === 'add_to_cart')?.events ?? 0;
}

async function crashRun(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  env = { ...env, OWNER_EMAIL: OWNER.email, OWNER_PASSWORD: OWNER.password, PORT: String(port) };
  const first = await servers.serve(env);
  let acked = 0;
  // Bursts of beacons; the process is killed straight after the last answer, with events still buffered.
  await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      for (let k = 0; k < 6; k++) {
        const res = await fetch(`${base}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          body: beacon(c * 100 + k),
        });
        expect(res.status).toBe(202);
        acked += ((await res.json()) as { accepted: number }).accepted;
      }
    }),
  );
  first.child.kill('SIGKILL');
  await first.exited;
  expect(acked).toBe(8 * 6 * 20);

  const second = await servers.serve(env);
  // The restarted server replays the buffered events; counted until all acknowledged ones are there.
  const n = await vi.waitFor(
    async () => {
      const c = await counted(base);
      expect(c).toBeGreaterThanOrEqual(acked);
      return c;
    },
    { timeout: 30_000, interval: 300 },
  );
  // Everything acknowledged is there (at least once: a batch committed just before the kill may count twice).
  expect(n).toBeGreaterThanOrEqual(acked);
  expect(n).toBeLessThanOrEqual(acked + 2000);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}

describe('kill -9 with analytics events buffered', () => {
  it('keeps every acknowledged event on PGlite', async () => {
    await crashRun({ DATA_DIR: tempDir() });
  }, 240_000);

  it('keeps every acknowledged event on PostgreSQL', async () => {
    await withScratchPostgres('tessera_acrash', (url) => crashRun({ DATABASE_URL: url, DATA_DIR: tempDir() }));
  }, 240_000);
});

import { describe, expect, it } from 'vitest';
import { freePort, tempDir, waitFor } from '../helpers/process.js';
import { serverProcesses, withScratchPostgres } from '../helpers/crash.js';
import { HttpVisitor } from '../helpers/http-visitor.js';
import { solveChallenge } from 'altcha-lib/v1';

const servers = serverProcesses();

/**
 * kill -9 under load: every cart add the server acknowledged (answered 200) is there after a restart,
 * and the server starts again without manual repair.
 */
async function crashRun(env: Record<string, string>) {
  let stop = false;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  env = { ...env, OWNER_EMAIL: 'owner@example.com', OWNER_PASSWORD: 'correct horse battery staple', TRUST_PROXY: 'true' };
  const first = await servers.serve({ ...env, PORT: String(port) });

  const ctx = (await (await fetch(`${base}/shop/p/houseplant-field-guide?format=json`)).json()) as { item: { id: string } };
  const itemId = ctx.item.id;
  const clients: HttpVisitor[] = Array.from({ length: 8 }, () => new HttpVisitor([base]));
  for (const c of clients) await c.call('GET', '/health', undefined, base);
  const acked = new Map<HttpVisitor, number>();
  const loops = clients.map(async (c) => {
    while (!stop) {
      try {
        const res = await c.call('POST', '/api/commerce/shopping-cart/entries', { itemId, sku: 'EBOOK-PLANTS', quantity: 1 }, base);
        if (res.status === 200) acked.set(c, (acked.get(c) ?? 0) + 1);
      } catch {
        return; // the server is gone
      }
    }
  });
  // An owner editing the footer code: the last acknowledged version must survive.
  const owner = new HttpVisitor([base]);
  await owner.call('GET', '/health', undefined, base);
  expect(
    (await owner.call('POST', '/api/auth/login', { email: 'owner@example.com', password: 'correct horse battery staple' }, base)).status,
  ).toBe(200);
  let lastEdit = 0;
  const editLoop = (async () => {
    for (let n = 1; !stop; n++) {
      try {
        const res = await owner.call('PUT', '/api/site-header-footer', { header: '', footer: `<!-- edit ${n} -->` }, base);
        if (res.status === 200) lastEdit = n;
      } catch {
        return;
      }
    }
  })();
  // Visitors signing up for a sold-out variant, each from an address of their own.
  const throwCtx = (await (await fetch(`${base}/shop/p/merino-wool-throw?format=json`)).json()) as {
    item: { id: string; structuredContent: { variants: Array<{ id: string; sku: string }> } };
  };
  const clay = throwCtx.item.structuredContent.variants.find((v) => v.sku === 'THROW-CLAY')!;
  const signedUp: string[] = [];
  const signUpLoop = (async () => {
    for (let n = 0; !stop; n++) {
      try {
        const v = new HttpVisitor([base]);
        const ip = { 'x-forwarded-for': `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}` };
        const c = (await (await v.call('GET', '/api/captcha/challenge?action=product-waitlist', undefined, base, ip)).json()) as Record<
          string,
          string & number
        >;
        const sol = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
        const token = Buffer.from(
          JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: sol!.number, salt: c.salt, signature: c.signature }),
        ).toString('base64');
        const email = `crash${n}@example.com`;
        const res = await v.call(
          'POST',
          '/api/site-users/account/notifications/restock',
          { isJoinMailingList: false, productId: throwCtx.item.id, variantId: clay.id, siteVisitorEmail: email, captchaToken: token },
          base,
          ip,
        );
        if (res.status === 200) signedUp.push(email);
      } catch {
        return;
      }
    }
  })();
  await waitFor(
    () => [...acked.values()].reduce((a, b) => a + b, 0) >= 80 && lastEdit >= 5 && signedUp.length >= 5,
    90_000,
    'acknowledged writes',
  );
  first.child.kill('SIGKILL');
  stop = true;
  await Promise.all([...loops, editLoop, signUpLoop]);
  await first.exited;

  const second = await servers.serve({ ...env, PORT: String(port) });
  let total = 0;
  for (const c of clients) {
    const cart = (await (await c.call('GET', '/api/commerce/shopping-cart', undefined, base)).json()) as { totalQuantity: number };
    const n = acked.get(c) ?? 0;
    total += n;
    // Everything acknowledged is there; at most one more (a write that committed as the answer was lost).
    expect(cart.totalQuantity).toBeGreaterThanOrEqual(n);
    expect(cart.totalQuantity).toBeLessThanOrEqual(n + 1);
  }
  expect(total).toBeGreaterThanOrEqual(80);
  // The owner's last acknowledged edit (or the one in flight when the process died) is there.
  const again = new HttpVisitor([base]);
  await again.call('GET', '/health', undefined, base);
  expect(
    (await again.call('POST', '/api/auth/login', { email: 'owner@example.com', password: 'correct horse battery staple' }, base)).status,
  ).toBe(200);
  const footer = ((await (await again.call('GET', '/api/site-header-footer', undefined, base)).json()) as { footer: string }).footer;
  const version = Number(/edit (\d+)/.exec(footer)?.[1]);
  expect(version).toBeGreaterThanOrEqual(lastEdit);
  expect(version).toBeLessThanOrEqual(lastEdit + 1);
  // Every acknowledged restock sign-up is in the owner's list.
  const listed = new Set<string>();
  let cursor = '';
  for (let page = 0; page < 100; page++) {
    const r = (await (
      await again.call(
        'GET',
        `/api/site-users/account/notifications/restock?productId=${throwCtx.item.id}&variantId=${clay.id}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        undefined,
        base,
      )
    ).json()) as {
      signUps: Array<{ email?: string; siteVisitorEmail?: string }>;
      hasNextPage: boolean;
      nextPageCursor: string;
    };
    for (const s of r.signUps) listed.add(String(s.email ?? s.siteVisitorEmail));
    if (!r.hasNextPage) break;
    cursor = r.nextPageCursor;
  }
  for (const e of signedUp) expect(listed.has(e), e).toBe(true);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}

describe('kill -9 under load', () => {
  it('loses no acknowledged write (cart adds, owner edits, restock sign-ups) on PGlite', async () => {
    await crashRun({ DATA_DIR: tempDir() });
  }, 240_000);

  it('loses no acknowledged write (cart adds, owner edits, restock sign-ups) on PostgreSQL', async () => {
    await withScratchPostgres('tessera_crash', (url) => crashRun({ DATABASE_URL: url, DATA_DIR: tempDir() }));
  }, 240_000);
});

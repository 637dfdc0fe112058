/**
 * A digital product's file (issue 24) on both databases: the owner uploads it through the catalogue call; it is
 * stored privately (not under the public /uploads path); a paid order's signed download link streams it, while
 * the same path without a valid signature, an expired link and a non-owner upload are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { DIGITAL_TEXT, digitalDir } from '../../../src/server/catalog/digital-files.js';
import { confirmed } from '../../helpers/orders.js';

const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const CONTENT = 'The Houseplant Field Guide — chapter one.\n';

describe.each(APP_KINDS)('digital product files on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let ebook = '';

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ebook = t.seed.productIds['houseplant-field-guide']!;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (id: string, name?: string) =>
    `/api/config/catalog/products/${id}/digital-file${name ? `?name=${encodeURIComponent(name)}` : ''}`;

  it('refuses bad uploads with a clear message and without the crumb or an owner', async () => {
    const empty = await owner.send('POST', url(ebook, 'guide.txt'), '', { headers: { 'content-type': 'application/octet-stream' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(DIGITAL_TEXT.EMPTY);
    const noName = await owner.send('POST', url(ebook), 'x', { headers: { 'content-type': 'application/octet-stream' } });
    expect(noName.statusCode).toBe(400);
    const physical = await owner.send('POST', url(t.seed.productIds['ceramic-pour-over-set']!, 'a.txt'), 'x', {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(physical.statusCode).toBe(400);
    expect(physical.json().message).toBe(DIGITAL_TEXT.NOT_DIGITAL);
    const noCrumb = await owner.send('POST', url(ebook, 'a.txt'), 'x', {
      crumb: false,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(noCrumb.statusCode).toBe(403);
    const stranger = new Visitor(t.app);
    const anon = await stranger.send('POST', url(ebook, 'a.txt'), 'x', { headers: { 'content-type': 'application/octet-stream' } });
    expect(anon.statusCode).toBe(401);
    expect((await owner.get(url(ebook))).json().file).toBeNull();
  });

  it("an uploaded file is downloadable from the paid order's link and refused without it", async () => {
    const up = await owner.send('POST', url(ebook, 'Field guide.txt'), CONTENT, {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json().file).toMatchObject({
      name: 'Field guide.txt',
      size: Buffer.byteLength(CONTENT),
      contentType: 'text/plain; charset=utf-8',
    });
    expect((await owner.get(url(ebook))).json().file.name).toBe('Field guide.txt');
    // Stored privately: the key is not sent to the browser, the bytes live outside the public uploads folder.
    expect(up.body).not.toContain('"key"');
    const [stored] = await rows<{ key: string }>(
      t.database.db,
      sql`select structured_content->'digitalFile'->>'key' as key from items where id = ${ebook}`,
    );
    expect(existsSync(resolve(digitalDir(t.app.config.DATA_DIR), stored!.key))).toBe(true);
    expect((await new Visitor(t.app).get(`/uploads/${stored!.key}`)).statusCode).toBe(404);

    // Saving the product in the editor keeps the file.
    const got = (await owner.get(`/api/config/products/${ebook}`)).json();
    const product = got.product ?? got;
    const saved = await owner.send('PUT', `/api/config/products/${ebook}`, product);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await owner.get(url(ebook))).json().file.name).toBe('Field guide.txt');

    // A buyer pays; the confirmation's link streams the file.
    const buyer = new Visitor(t.app);
    expect(
      (await buyer.send('POST', '/api/commerce/shopping-cart/entries', { itemId: ebook, sku: 'EBOOK-PLANTS', quantity: 1 })).statusCode,
    ).toBe(200);
    const placed = await buyer.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(buyer, { email: 'reader@example.com', payment: CARD, idempotencyKey: `dl-${kind}-${Date.now()}` }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const page = await buyer.get(placed.json().confirmationUrl);
    const link = /href="(\/order-download\/[^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const dl = await new Visitor(t.app).get(link);
    expect(dl.statusCode).toBe(200);
    expect(dl.body).toBe(CONTENT);
    expect(dl.headers['content-disposition']).toContain('attachment; filename="Field guide.txt"');
    expect(dl.headers['cache-control']).toContain('no-store');

    // Without the signature, with a forged one, or expired: refused, and the file's bytes are not sent.
    const path = new URL(link, 'http://x').pathname;
    const bare = await new Visitor(t.app).get(path);
    expect(bare.statusCode).toBe(403);
    expect(bare.body).not.toContain('chapter one');
    const forged = new URL(link, 'http://x');
    forged.searchParams.set('t', 'A'.repeat(43));
    expect((await new Visitor(t.app).get(forged.pathname + forged.search)).statusCode).toBe(403);
    const stale = t.app.checkout.service.downloadPath(placed.json().purchaseConfirmation.id, 0, Date.now() - 25 * 3600 * 1000);
    const gone = await new Visitor(t.app).get(stale);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).not.toContain('chapter one');
  });
});

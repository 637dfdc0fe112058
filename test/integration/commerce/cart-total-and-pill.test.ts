/** Issue 45, storefront bugs a visitor or owner would notice: the calls and pages, on both databases. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { cart as cartMessages } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';

for (const kind of APP_KINDS) {
  describe(`issue 45 storefront on ${kind}`, () => {
    let t: TestApp;
    let ids: Record<string, string>;
    let owner: Visitor;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' }, {});
      ids = t.seed.productIds;
      owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
    });

    const setPrice = (sku: string, cents: bigint | number) =>
      t.database.db.execute(
        sql`update product_variants set price_cents = ${String(cents)}::bigint, on_sale = false, unlimited = true where sku = ${sku}`,
      );
    const setCurrency = async (currency: string) => {
      const s = (await owner.get('/api/config/store-settings')).json();
      const put = await owner.send('PUT', '/api/config/store-settings', { ...s, currency });
      expect(put.statusCode, put.body).toBe(200);
    };

    describe('a cart total never passes 15 integer places', () => {
      it('refuses the add and the quantity raise that would pass 15 yen places; the cart and checkout still open', async () => {
        await setCurrency('JPY');
        try {
          const yen = 100_000_000_000n; // ¥100,000,000,000
          await setPrice('SHIRT-M-SAND', yen);
          await setPrice('POUR-OVER', yen);
          const v = new Visitor(t.app);
          const first = await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 9999 });
          expect(first.statusCode, first.body).toBe(200);
          expect(first.json().shoppingCart.subtotal).toEqual({ value: String(9999n * yen), currency: 'JPY' });
          // A second line of 9,999 makes ¥1,999,800,000,000,000: 16 integer places, refused before saving.
          const second = await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 9999 });
          expect(second.statusCode).toBe(400);
          expect(second.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
          // One more makes exactly ¥1,000,000,000,000,000, 16 places: refused too.
          expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(400);
          const lower = await v.send('PUT', `${ADD}/${first.json().newlyAdded.id}`, { quantity: 9998 });
          expect(lower.statusCode, lower.body).toBe(200);
          const one = await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
          expect(one.statusCode, one.body).toBe(200);
          expect(one.json().shoppingCart.subtotal.value).toBe('999900000000000');
          const raise = await v.send('PUT', `${ADD}/${one.json().newlyAdded.id}`, { quantity: 2 });
          expect(raise.statusCode).toBe(400);
          expect(raise.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
          for (const path of ['/cart', '/checkout']) {
            const page = await v.get(path);
            expect(page.statusCode, `${path} ${page.body.slice(0, 300)}`).toBe(200);
          }
          expect((await v.get(CART)).json().subtotal.value).toBe(String(9999n * yen));
        } finally {
          await setPrice('SHIRT-M-SAND', 6800);
          await setPrice('POUR-OVER', 3900);
          await setCurrency('USD');
        }
      });

      it('a cart an owner price change takes past 15 places still opens on /cart and /checkout, and can be lowered', async () => {
        await setCurrency('JPY');
        try {
          await setPrice('SHIRT-M-SAND', 1000);
          const v = new Visitor(t.app);
          const add = await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 3 });
          expect(add.statusCode, add.body).toBe(200);
          await setPrice('SHIRT-M-SAND', 5n * 10n ** 14n); // three of them: ¥1,500,000,000,000,000, 16 places
          for (const path of ['/cart', '/checkout']) {
            const page = await v.get(path);
            expect(page.statusCode, `${path} ${page.body.slice(0, 300)}`).toBe(200);
            expect(page.body).toContain(cartMessages.CART_TOTAL_TOO_LARGE);
            expect(page.body).toContain(cartMessages.AMOUNT_TOO_LARGE);
          }
          const address = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
          const placed = await v.send(
            'POST',
            '/api/checkout/place-order',
            {
              email: 'ada@example.com',
              shippingAddress: address,
              payment: { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' },
            },
            { headers: { 'idempotency-key': `too-large-${kind}-${Date.now()}` } },
          );
          expect(placed.statusCode).toBe(400);
          expect(placed.json().message).toBe(cartMessages.CART_TOTAL_TOO_LARGE);
          const read = await v.get(CART);
          expect(read.statusCode).toBe(200);
          const entryId = read.json().entries[0].id as string;
          const down = await v.send('PUT', `${ADD}/${entryId}`, { quantity: 1 });
          expect(down.statusCode, down.body).toBe(200);
          const page = await v.get('/cart');
          expect(page.statusCode).toBe(200);
          expect(page.body).toContain('¥500,000,000,000,000');
          expect(page.body).not.toContain(cartMessages.CART_TOTAL_TOO_LARGE);
        } finally {
          await setPrice('SHIRT-M-SAND', 6800);
          await setCurrency('USD');
        }
      });
    });

    describe('the cart pill says what it shows without JavaScript', () => {
      const pillTag = (html: string) => /<a[^>]*data-test="cart-pill"[^>]*>/.exec(html)?.[0] ?? '';
      const label = (html: string) => /aria-label="([^"]*)"/.exec(pillTag(html))?.[1];
      const count = (html: string) => /<span class="cart-pill__count"[^>]*>([^<]*)<\/span>/.exec(html)?.[1];

      it('in the page rendered for the shopper and in the shared page the cache gives them their pill in, plain and gzip', async () => {
        await setPrice('POUR-OVER', 3900);
        const anonymous = new Visitor(t.app);
        const shopper = new Visitor(t.app);
        const add = await shopper.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
        expect(add.statusCode, add.body).toBe(200);
        const entryId = add.json().newlyAdded.id as string;
        for (const [quantity, spoken, shown] of [
          [1, 'One item in cart', '1'],
          [3, '3 items in cart', '3'],
          [101, 'More than 100 items in cart', '100+'],
        ] as const) {
          if (quantity !== 1) expect((await shopper.send('PUT', `${ADD}/${entryId}`, { quantity })).statusCode).toBe(200);
          for (const path of ['/shop', '/shop/p/linen-camp-shirt', '/']) {
            // The shopper's own render, then the shared copy (an anonymous visitor's render) with their pill spliced in.
            const own = await shopper.get(path, { accept: 'text/html' });
            expect(own.statusCode).toBe(200);
            expect([label(own.body), count(own.body)], `${path} own`).toEqual([spoken, shown]);
            expect(label((await anonymous.get(path, { accept: 'text/html' })).body)).toBe('0 items in cart');
            const hits = t.app.pageCache.stats.hits;
            const spliced = await shopper.get(path, { accept: 'text/html' });
            expect(t.app.pageCache.stats.hits - hits, `${path} served from the cache`).toBe(1);
            expect([label(spliced.body), count(spliced.body)], `${path} spliced`).toEqual([spoken, shown]);
            const gz = await shopper.get(path, { accept: 'text/html', 'accept-encoding': 'gzip' });
            const body = gz.headers['content-encoding'] === 'gzip' ? gunzipSync(gz.rawPayload).toString() : gz.body;
            expect(label(body), `${path} gzip`).toBe(spoken);
          }
        }
        expect((await shopper.send('DELETE', `${ADD}/${entryId}`)).statusCode).toBe(200);
      });
    });

    it('the navigation accepts every link form its message promises and refuses the rest', async () => {
      const save = (externalLink: string) =>
        owner.send('POST', '/api/widget/UpdateNavigation', {
          fieldName: 'issue45Nav',
          navigation: { items: [{ title: 'Link', externalLink }] },
        });
      const stored = async () =>
        (
          (await owner.get('/api/commondata/GetSiteLayout')).json() as Array<{ identifier: string; links: Array<{ externalLink: string }> }>
        ).find((e) => e.identifier === 'issue45Nav')?.links[0]?.externalLink;
      for (const [typed, kept] of [
        ['example.com', 'https://example.com'],
        ['example.com/about?x=1#top', 'https://example.com/about?x=1#top'],
        ['shop.example.com', 'https://shop.example.com'],
        ['bücher.de/bücher', 'https://bücher.de/bücher'],
        ['https://example.com', 'https://example.com'],
        ['/shop', '/shop'],
        ['mailto:ada@example.com', 'mailto:ada@example.com'],
      ]) {
        const r = await save(typed);
        expect(r.statusCode, `${typed} ${r.body}`).toBe(200);
        expect(await stored(), typed).toBe(kept);
      }
      for (const bad of ['example', 'javascript:alert(1)', 'exa mple.com', 'a@example.com', '-example.com', 'ftp://example.com']) {
        const r = await save(bad);
        expect(r.statusCode, bad).toBe(400);
        expect(r.json().message, bad).toBe('Links must be formatted as example.com or https://example.com');
      }
    });
  });
}

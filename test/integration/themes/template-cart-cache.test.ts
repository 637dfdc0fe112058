/**
 * Issue 38, item 5: a developer template that prints the visitor's cart (`{squarespace.cart-classes}`,
 * `{shoppingCart.totalQuantity}`: the "Cart (n)" idiom) never has one shopper's cart shared with another
 * through the page cache (pages/page-cache.ts, themes/adapter.ts). A page whose render printed the cart is
 * kept only from a visitor with no cart and nobody signed in, and served only to such visitors; a page of
 * the same template that never prints the cart is still shared with shoppers. The fixture is the
 * repository's own test template, copied to a temporary folder, with the cart printed in its wide layout.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { SiteUserService } from '../../../src/server/platform/site-users.js';
import { newId } from '../../../src/db/ids.js';
import { schema } from '../../../src/db/index.js';
import { formatSiteUserInfo } from '../../../src/core/cookies.js';

const CART = /<a class="tr-cart (cart-empty|cart-has-items)" href="\/cart">Cart \((\d+)\)<\/a>/;

describe.each(DB_KINDS)('a developer template printing the cart, through the page cache, on %s', (kind) => {
  let base: string;
  let t: TestApp;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'tessera-cart-template-'));
    const tpl = join(base, 'cart-template');
    cpSync(resolve('test/data/dev-templates/multi-region'), tpl, { recursive: true });
    // The default layout (header, site, footer) prints no cart; the wide one prints both keys.
    const header = join(tpl, 'header.region');
    writeFileSync(
      header,
      readFileSync(header, 'utf8').replace(
        '<a class="tr-cart {squarespace.cart-classes}" href="/cart">{localizedStrings.cart}</a>',
        '<a class="tr-cart" href="/cart">{localizedStrings.cart}</a>',
      ),
    );
    const wide = join(tpl, 'wide.region');
    writeFileSync(
      wide,
      `<a class="tr-cart {squarespace.cart-classes}" href="/cart">Cart ({shoppingCart.totalQuantity})</a>\n${readFileSync(wide, 'utf8')}`,
    );
    t = await testApp(kind, { THEME_DIR: tpl, RATE_LIMIT_STORE: 'memory' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const counted = async <T>(fn: () => Promise<T>) => {
    await t.app.pageCache.idle();
    const before = { ...t.app.pageCache.stats };
    const value = await fn();
    await t.app.pageCache.idle();
    const after = t.app.pageCache.stats;
    return { value, hits: after.hits - before.hits, stored: after.stored - before.stored };
  };
  const cartOf = (html: string) => {
    const m = CART.exec(html);
    return m ? { classes: m[1], count: Number(m[2]) } : null;
  };
  const shopper = async (quantity: number) => {
    const v = new Visitor(t.app);
    const add = await v.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['linen-camp-shirt'],
      sku: 'SHIRT-S-NAVY',
      quantity,
    });
    expect(add.statusCode, add.body).toBe(200);
    return v;
  };

  it('shows every visitor their own cart count and classes, whoever rendered the page first', async () => {
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const journal = (await owner.get('/api/themes')).json().pages.find((p: { title: string }) => p.title === 'Journal');
    expect((await owner.send('PUT', '/api/themes/layout', { collectionId: journal.id, layout: 'wide' })).statusCode).toBe(200);

    const two = await shopper(2);
    const one = await shopper(1);
    // A shopper renders the page first: it is theirs alone, not kept.
    const first = await counted(() => two.get('/journal'));
    expect(first.value.statusCode).toBe(200);
    expect(cartOf(first.value.body)).toEqual({ classes: 'cart-has-items', count: 2 });
    expect(first.stored).toBe(0);
    // A visitor with no cart: the empty cart, and their render is kept for visitors like them.
    const empty = await counted(() => new Visitor(t.app).get('/journal'));
    expect(cartOf(empty.value.body)).toEqual({ classes: 'cart-empty', count: 0 });
    expect(empty.stored).toBe(1);
    const again = await counted(() => new Visitor(t.app).get('/journal'));
    expect(again.hits).toBe(1);
    expect(cartOf(again.value.body)).toEqual({ classes: 'cart-empty', count: 0 });
    // With that page kept, each shopper still gets their own count.
    for (const [v, count] of [
      [two, 2],
      [one, 1],
    ] as const) {
      const own = await counted(() => v.get('/journal'));
      expect(own.hits).toBe(0);
      expect(own.stored).toBe(0);
      expect(cartOf(own.value.body)).toEqual({ classes: 'cart-has-items', count });
    }
    // The cart pill is still the visitor's own, as on every page.
    expect(/data-island="CartPill" data-props="([^"]*)"/.exec((await one.get('/journal')).body)?.[1]).toContain(
      '&quot;totalQuantity&quot;:1',
    );
  });

  it('shows a signed-in site user their own cart, which follows them without a cart cookie', async () => {
    const users = new SiteUserService(t.database, { send: async () => undefined } as never);
    const id = newId();
    await t.database.db
      .insert(schema.siteUsers)
      .values({ id, websiteId: t.seed.websiteId, email: `cart-${id}@example.com`, passwordHash: 'not-a-password' });
    const token = (await users.startSession(id, true)).token;
    const device = new Visitor(t.app);
    device.cookies.set('tessera_site_user', token);
    const add = await device.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['linen-camp-shirt'],
      sku: 'SHIRT-S-NAVY',
      quantity: 3,
    });
    expect(add.statusCode, add.body).toBe(200);
    const other = new Visitor(t.app);
    other.cookies.set('tessera_site_user', token);
    other.cookies.set('SiteUserInfo', encodeURIComponent(formatSiteUserInfo({ authenticated: true, siteUserId: id })));
    await new Visitor(t.app).get('/journal');
    const theirs = await counted(() => other.get('/journal'));
    expect(theirs.hits).toBe(0);
    expect(cartOf(theirs.value.body)).toEqual({ classes: 'cart-has-items', count: 3 });
    const anonymous = await counted(() => new Visitor(t.app).get('/journal'));
    expect(cartOf(anonymous.value.body)).toEqual({ classes: 'cart-empty', count: 0 });
  });

  it('still shares the pages of the template that never print the cart, with shoppers too', async () => {
    const two = await shopper(2);
    const first = await counted(() => two.get('/shop'));
    expect(first.value.statusCode).toBe(200);
    expect(first.value.body).toContain('data-region="site"');
    expect(cartOf(first.value.body)).toBeNull();
    expect(first.stored).toBe(1);
    const next = await counted(() => new Visitor(t.app).get('/shop'));
    expect(next.hits).toBe(1);
    const back = await counted(() => two.get('/shop'));
    expect(back.hits).toBe(1);
  });
});

import { UNKNOWN_COUNTRY } from '../../../src/core/countries.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { ADDRESS, CARD, placeOrder, confirmed } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { accountMessages, ACCOUNT_DONE, MAX_SAVED_ADDRESSES } from '../../../src/server/platform/account-data.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';

const PASSWORD = 'a long enough secret';
const XSRF = 'x-siteuser-xsrf-token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function mailedLink(t: TestApp, to: string, path: string): Promise<string> {
  const r = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${to} order by id desc`,
  );
  for (const mail of r) {
    const m = mail.text_body.match(/https?:\/\/\S+/g)?.find((u) => new URL(u).pathname === path && new URL(u).searchParams.has('token'));
    if (m) return new URL(m).pathname + new URL(m).search;
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}

/** A confirmed customer, signed in: the visitor and the session's xsrf token. */
async function customer(t: TestApp, email: string): Promise<{ v: Visitor; xsrf: string }> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD })).statusCode).toBe(202);
  expect((await v.get(await mailedLink(t, email, '/account/confirm'))).statusCode).toBe(303);
  const res = await v.send('POST', '/api/site-users/account/session', { email, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  return { v, xsrf: res.json().xsrfToken };
}

/** A plain form post (no JavaScript) with the visitor's crumb in the body. */
async function formPost(v: Visitor, url: string, fields: Record<string, string | string[]>, crumb = true) {
  const body = new URLSearchParams();
  if (crumb) body.append('crumb', await v.crumb());
  for (const [k, val] of Object.entries(fields)) for (const x of Array.isArray(val) ? val : [val]) body.append(k, x);
  return v.send('POST', url, body.toString(), { crumb: false, headers: FORM });
}

describe.each(APP_KINDS)('customer accounts on %s', (kind) => {
  let t: TestApp;
  let ids: Record<string, string>;
  let owner: Visitor;
  let ada: { v: Visitor; xsrf: string };
  let bob: { v: Visitor; xsrf: string };
  let adaOrder: { id: string; orderNumber: number };
  let bobOrder: { id: string; orderNumber: number };
  let adaSubscription: string;

  const h = (c: { xsrf: string }) => ({ headers: { [XSRF]: c.xsrf } });
  const get = (c: { v: Visitor; xsrf: string }, url: string) => c.v.get(url, { [XSRF]: c.xsrf });

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    ada = await customer(t, 'ada.account@example.com');
    bob = await customer(t, 'bob.account@example.com');
    adaOrder = await placeOrder(
      t.app,
      [
        { itemId: ids['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 1 },
        { itemId: ids['houseplant-field-guide']!, sku: 'EBOOK-PLANTS', quantity: 1 },
      ],
      { email: 'Ada.Account@example.com' },
    );
    bobOrder = await placeOrder(t.app, [{ itemId: ids['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 2 }], {
      email: 'bob.account@example.com',
    });
    const shipped = await owner.send('POST', `/api/checkout/admin/orders/${adaOrder.id}/fulfil`, {
      lines: [{ line: 0, quantity: 1 }],
      carrier: 'ups',
      trackingNumber: '1ZACCOUNT01',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    // A subscription bought by Ada while signed in (with another email: the account's cart makes it hers).
    const s = await ada.v.send('POST', '/api/3/commerce/cart/subscription', {
      itemId: ids['fresh-roast-coffee-subscription'],
      sku: 'COFFEE-SUB',
      qty: 1,
    });
    expect(s.statusCode, s.body).toBe(200);
    const placed = await ada.v.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(ada.v, {
        cartToken: s.json().cartToken,
        email: 'ada.other@example.com',
        shippingAddress: ADDRESS,
        payment: CARD,
        idempotencyKey: `acct-${kind}-sub`,
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    adaSubscription = (
      await rows<{ id: string }>(t.database.db, sql`select id from subscriptions where email = 'ada.other@example.com'`)
    )[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists only the customer's own orders, with status, tracking number and a download for the digital line", async () => {
    const res = await get(ada, '/api/site-users/account/orders');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { orders, downloads } = res.json();
    const numbers = orders.map((o: { orderNumber: number }) => o.orderNumber);
    expect(numbers).toContain(adaOrder.orderNumber);
    expect(numbers).not.toContain(bobOrder.orderNumber);
    const o = orders.find((x: { orderNumber: number }) => x.orderNumber === adaOrder.orderNumber);
    expect(o.statusLabel).toBe('Paid — partly shipped');
    expect(o.tracking).toEqual([{ carrier: 'ups', number: '1ZACCOUNT01', url: expect.stringMatching(/^https:\/\/.*1ZACCOUNT01/) }]);
    expect(o.statusUrl).toMatch(new RegExp(`^/order-status/${adaOrder.id}\\?t=`));
    expect(downloads).toEqual([
      {
        orderNumber: adaOrder.orderNumber,
        productName: 'The Houseplant Field Guide (eBook)',
        url: expect.stringMatching(new RegExp(`^/order-download/${adaOrder.id}/1\\?`)),
      },
    ]);
    // The link is signed: the download route takes it (the seeded eBook has no file yet, which it says), and refuses a changed one.
    const dl = await ada.v.get(downloads[0].url);
    expect(dl.body).toBe('The file for this product has not been uploaded yet. Please contact the shop.');
    expect((await ada.v.get(downloads[0].url.replace('/1?', '/0?'))).statusCode).toBe(403);
    const bobs = (await get(bob, '/api/site-users/account/orders')).json();
    expect(bobs.orders.map((x: { orderNumber: number }) => x.orderNumber)).toEqual([bobOrder.orderNumber]);
    expect(bobs.downloads).toEqual([]);
  });

  it('refuses the account calls without a session, and JSON changes without the xsrf header', async () => {
    const anon = new Visitor(t.app);
    for (const url of [
      '/api/site-users/account/orders',
      '/api/site-users/account/addresses',
      '/api/site-users/account/subscriptions',
      '/api/site-users/account/newsletters',
      '/api/site-users/account/restock-alerts',
    ]) {
      const r = await anon.get(url);
      expect(r.statusCode, url).toBe(401);
      expect(r.json().message).toBe(siteUserMessages.SIGN_IN_REQUIRED);
      expect((await ada.v.get(url)).statusCode, url).toBe(403);
    }
    const noXsrf = await ada.v.send('POST', '/api/site-users/account/addresses', { ...ADDRESS });
    expect(noXsrf.statusCode).toBe(403);
    expect(noXsrf.json().message).toBe(siteUserMessages.XSRF_FAILED);
    const noCrumb = await ada.v.send('POST', `/api/site-users/account/subscriptions/${adaSubscription}/cancel`, undefined, {
      crumb: false,
      ...h(ada),
    });
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json()).toEqual({ crumbFail: true });
    // A plain form post without the crumb is refused too (account calls are never crumb-less).
    const formNoCrumb = await formPost(ada.v, '/api/site-users/account/addresses', { ...ADDRESS }, false);
    expect(formNoCrumb.statusCode).toBe(403);
    expect((await get(ada, '/api/site-users/account/addresses')).json().addresses).toEqual([]);
    // A signed-out plain post goes to sign-in.
    const anonForm = await formPost(anon, '/api/site-users/account/addresses', { ...ADDRESS });
    expect(anonForm.statusCode).toBe(303);
    expect(anonForm.headers.location).toBe('/account/login?next=/account');
  });

  it("saves addresses with clear errors, keeps one default, and never touches another customer's", async () => {
    const bad = await bob.v.send(
      'POST',
      '/api/site-users/account/addresses',
      { name: '', line1: '1 Main St', city: 'Portland', postalCode: '97201', country: 'Narnia' },
      h(bob),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ name: 'Required', country: UNKNOWN_COUNTRY });
    const nowhere = await bob.v.send('POST', '/api/site-users/account/addresses', { ...ADDRESS, country: 'UK' }, h(bob));
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().errors).toEqual({ country: UNKNOWN_COUNTRY });
    const first = await bob.v.send('POST', '/api/site-users/account/addresses', { ...ADDRESS, name: 'Bob Home' }, h(bob));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().address).toMatchObject({ name: 'Bob Home', country: 'US', isDefault: true });
    const second = await bob.v.send(
      'POST',
      '/api/site-users/account/addresses',
      { ...ADDRESS, name: 'Bob Work', line1: '9 Office Rd', isDefault: true },
      h(bob),
    );
    expect(second.json().address.isDefault).toBe(true);
    const list = (await get(bob, '/api/site-users/account/addresses')).json().addresses;
    expect(list.map((a: { name: string; isDefault: boolean }) => [a.name, a.isDefault])).toEqual([
      ['Bob Work', true],
      ['Bob Home', false],
    ]);
    const bobHome = list[1].id;
    // Ada cannot see, remove or pick Bob's address.
    expect((await get(ada, '/api/site-users/account/addresses')).json().addresses).toEqual([]);
    const steal = await ada.v.send('DELETE', `/api/site-users/account/addresses/${bobHome}`, undefined, h(ada));
    expect(steal.statusCode).toBe(404);
    expect(steal.json().message).toBe(accountMessages.ADDRESS_NOT_FOUND);
    expect((await ada.v.send('POST', `/api/site-users/account/addresses/${bobHome}/default`, {}, h(ada))).statusCode).toBe(404);
    expect((await get(bob, '/api/site-users/account/addresses')).json().addresses).toHaveLength(2);
    // Removing the default makes the remaining one the default.
    expect((await bob.v.send('DELETE', `/api/site-users/account/addresses/${list[0].id}`, undefined, h(bob))).statusCode).toBe(200);
    expect((await get(bob, '/api/site-users/account/addresses')).json().addresses).toEqual([
      expect.objectContaining({ id: bobHome, isDefault: true }),
    ]);
    for (let i = 1; i < MAX_SAVED_ADDRESSES; i++)
      expect((await bob.v.send('POST', '/api/site-users/account/addresses', { ...ADDRESS, name: `Bob ${i}` }, h(bob))).statusCode).toBe(
        200,
      );
    const over = await bob.v.send('POST', '/api/site-users/account/addresses', { ...ADDRESS, name: 'One too many' }, h(bob));
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(accountMessages.TOO_MANY_ADDRESSES);
  });

  it('checks a saved address against its country’s format: province from the list, postcode pattern, nothing saved half', async () => {
    const carol = await customer(t, 'carol.account@example.com');
    const toronto = { name: 'Carol', line1: '100 Queen St W', city: 'Toronto', region: 'ON', postalCode: 'M5H 2N2', country: 'CA' };
    const bad = await carol.v.send(
      'POST',
      '/api/site-users/account/addresses',
      { ...toronto, region: 'Narnia', postalCode: '90210' },
      h(carol),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      region: 'Choose a province from the list.',
      postalCode: 'Enter a valid postal code, for example H3Z 2Y7.',
    });
    // The same refusal as a plain form post: the account page again, the message at its field.
    const plain = await formPost(carol.v, '/api/site-users/account/addresses', { ...toronto, region: '' });
    expect(plain.statusCode).toBe(400);
    expect(plain.body).toContain('id="address-region-error"');
    expect((await get(carol, '/api/site-users/account/addresses')).json().addresses).toEqual([]);
    // A province by its name and a postcode in small letters are stored as Canada Post writes them.
    const ok = await carol.v.send(
      'POST',
      '/api/site-users/account/addresses',
      { ...toronto, region: 'Ontario', postalCode: ' m5h  2n2 ' },
      h(carol),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().address).toMatchObject({
      region: 'ON',
      postalCode: 'M5H 2N2',
      lines: ['Carol', '100 Queen St W', 'Toronto ON M5H 2N2', 'Canada'],
    });
  });

  it('prefills checkout with the account email and default address, and reorders a past order into the cart', async () => {
    const saved = await formPost(ada.v, '/api/site-users/account/addresses', {
      name: 'Ada Saved',
      line1: '5 Saved Way',
      city: 'Salem',
      region: 'or',
      postalCode: '97301',
      country: 'US',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/account?done=address-saved#addresses');
    const reorder = await formPost(ada.v, `/api/site-users/account/orders/${adaOrder.id}/reorder`, {});
    expect(reorder.statusCode, reorder.body).toBe(303);
    expect(reorder.headers.location).toBe('/checkout');
    const cart = (await ada.v.get('/api/commerce/shopping-cart')).json();
    expect(cart.entries.map((e: { chosenVariant: { sku: string } }) => e.chosenVariant.sku).sort()).toEqual(['EBOOK-PLANTS', 'POUR-OVER']);
    const page = await ada.v.get('/checkout');
    const attr = /data-island="CheckoutPage" data-props="([^"]*)"/.exec(page.body)![1]!;
    const props = JSON.parse(
      attr
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    const state = props.view.state;
    expect(state.email).toBe('ada.account@example.com');
    expect(state.shippingAddress).toMatchObject({
      name: 'Ada Saved',
      line1: '5 Saved Way',
      city: 'Salem',
      region: 'OR',
      postalCode: '97301',
      country: 'US',
    });
    // A subscription's order has nothing to put in a cart; a malformed id is a clear 400.
    const subOrder = (
      await rows<{ order_id: string }>(t.database.db, sql`select order_id from subscriptions where id = ${adaSubscription}`)
    )[0]!.order_id;
    const nothing = await ada.v.send('POST', `/api/site-users/account/orders/${subOrder}/reorder`, {}, h(ada));
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe(accountMessages.NOTHING_TO_REORDER);
    expect((await ada.v.send('POST', `/api/site-users/account/orders/${'x'.repeat(65)}/reorder`, {}, h(ada))).statusCode).toBe(400);
    // Bob cannot reorder Ada's order.
    const steal = await bob.v.send('POST', `/api/site-users/account/orders/${adaOrder.id}/reorder`, {}, h(bob));
    expect(steal.statusCode).toBe(404);
    expect(steal.json().message).toBe(accountMessages.ORDER_NOT_FOUND);
  });

  it("another customer's subscription and saved address cannot be read or changed by id, as JSON or as a plain form post", async () => {
    const bobAddresses = (await get(bob, '/api/site-users/account/addresses')).json().addresses as Array<{ id: string }>;
    const bobAddress = bobAddresses[0]!.id;
    // Reading: neither list shows the other's rows, nor does the account page.
    expect((await get(bob, '/api/site-users/account/subscriptions')).json().subscriptions).toEqual([]);
    expect((await get(ada, '/api/site-users/account/addresses')).json().addresses.map((a: { id: string }) => a.id)).not.toContain(
      bobAddress,
    );
    expect((await bob.v.get('/account')).body).not.toContain(adaSubscription);
    expect((await ada.v.get('/account')).body).not.toContain(bobAddress);
    // Changing by id: 404 with the account page's words, nothing changed.
    for (const url of [
      `/api/site-users/account/addresses/${bobAddress}/remove`,
      `/api/site-users/account/addresses/${bobAddress}/default`,
    ]) {
      const json = await ada.v.send('POST', url, {}, h(ada));
      expect(json.statusCode, url).toBe(404);
      expect(json.json().message).toBe(accountMessages.ADDRESS_NOT_FOUND);
      const form = await formPost(ada.v, url, {});
      expect(form.statusCode, url).toBe(404);
      expect(form.body).toContain(accountMessages.ADDRESS_NOT_FOUND);
    }
    const formCancel = await formPost(bob.v, `/api/site-users/account/subscriptions/${adaSubscription}/cancel`, {});
    expect(formCancel.statusCode).toBe(404);
    expect(formCancel.body).toContain(accountMessages.SUBSCRIPTION_NOT_FOUND);
    expect(
      (await rows<{ status: string }>(t.database.db, sql`select status from subscriptions where id = ${adaSubscription}`))[0]!.status,
    ).toBe('active');
    expect((await get(bob, '/api/site-users/account/addresses')).json().addresses).toEqual(bobAddresses);
  });

  it("lists and cancels the customer's subscription; another customer cannot", async () => {
    const list = (await get(ada, '/api/site-users/account/subscriptions')).json().subscriptions;
    expect(list).toEqual([expect.objectContaining({ id: adaSubscription, status: 'active', priceText: '$18.00 every month' })]);
    expect((await get(bob, '/api/site-users/account/subscriptions')).json().subscriptions).toEqual([]);
    const steal = await bob.v.send('POST', `/api/site-users/account/subscriptions/${adaSubscription}/cancel`, {}, h(bob));
    expect(steal.statusCode).toBe(404);
    expect(steal.json().message).toBe(accountMessages.SUBSCRIPTION_NOT_FOUND);
    const done = await formPost(ada.v, `/api/site-users/account/subscriptions/${adaSubscription}/cancel`, {});
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/account?done=subscription-canceled#subscriptions');
    expect(
      (await rows<{ status: string }>(t.database.db, sql`select status from subscriptions where id = ${adaSubscription}`))[0]!.status,
    ).toBe('canceled');
    const page = await ada.v.get('/account?done=subscription-canceled');
    expect(page.body).toContain(ACCOUNT_DONE['subscription-canceled']);
    // Again: the form answers the account page with the error at the subscriptions form.
    const again = await formPost(ada.v, `/api/site-users/account/subscriptions/${adaSubscription}/cancel`, {});
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toMatch(/text\/html/);
    expect(again.body).toContain(accountMessages.SUBSCRIPTION_ALREADY_CANCELED);
  });

  it('sets newsletter preferences for the account address only', async () => {
    const made = await owner.send('POST', '/api/config/engagement/lists', { name: 'Roast notes', doubleOptIn: true });
    expect(made.statusCode, made.body).toBe(201);
    const before = (await get(ada, '/api/site-users/account/newsletters')).json().newsletters;
    const roast = before.find((l: { name: string }) => l.name === 'Roast notes');
    expect(roast.subscribed).toBe(false);
    const saved = await formPost(ada.v, '/api/site-users/account/newsletters', { listIds: [roast.listId] });
    expect(saved.statusCode).toBe(303);
    const member = await rows<{ status: string; email: string }>(
      t.database.db,
      sql`select status, email from mailing_list_members where list_id = ${roast.listId}`,
    );
    expect(member).toEqual([{ status: 'subscribed', email: 'ada.account@example.com' }]);
    expect(
      (await get(bob, '/api/site-users/account/newsletters')).json().newsletters.find((l: { name: string }) => l.name === 'Roast notes')
        .subscribed,
    ).toBe(false);
    const unknown = await ada.v.send('POST', '/api/site-users/account/newsletters', { listIds: ['nope'] }, h(ada));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(accountMessages.LIST_NOT_FOUND);
    const off = await ada.v.send('POST', '/api/site-users/account/newsletters', { listIds: [] }, h(ada));
    expect(off.statusCode).toBe(200);
    expect(
      (await rows<{ status: string }>(t.database.db, sql`select status from mailing_list_members where list_id = ${roast.listId}`))[0]!
        .status,
    ).toBe('unsubscribed');
  });

  it("lists and stops the customer's restock alerts only", async () => {
    const v = (
      await rows<{ id: string; item_id: string }>(t.database.db, sql`select id, item_id from product_variants where sku = 'THROW-CLAY'`)
    )[0]!;
    const site = (await rows<{ website_id: string }>(t.database.db, sql`select website_id from items where id = ${v.item_id}`))[0]!
      .website_id;
    await t.database.db.execute(sql`insert into restock_sign_ups (id, website_id, product_id, variant_id, email, email_key) values
      ('rs-ada', ${site}, ${v.item_id}, ${v.id}, 'Ada.Account@example.com', 'ada.account@example.com'),
      ('rs-bob', ${site}, ${v.item_id}, ${v.id}, 'bob.account@example.com', 'bob.account@example.com')`);
    const list = (await get(ada, '/api/site-users/account/restock-alerts')).json().restockAlerts;
    expect(list).toEqual([expect.objectContaining({ id: 'rs-ada', product: 'Merino Wool Throw', variant: 'Clay' })]);
    const steal = await formPost(ada.v, '/api/site-users/account/restock-alerts/rs-bob/remove', {});
    expect(steal.statusCode).toBe(404);
    expect(steal.body).toContain(accountMessages.RESTOCK_NOT_FOUND);
    expect((await formPost(ada.v, '/api/site-users/account/restock-alerts/rs-ada/remove', {})).statusCode).toBe(303);
    const left = await rows<{ id: string; status: string }>(
      t.database.db,
      sql`select id, status from restock_sign_ups where id in ('rs-ada', 'rs-bob') order by id`,
    );
    expect(left).toEqual([
      { id: 'rs-ada', status: 'unsubscribed' },
      { id: 'rs-bob', status: 'pending' },
    ]);
  });

  it('renders the account page with every section, the crumb in each form, and signs out by a plain post', async () => {
    const c = await customer(t, 'carol.account@example.com');
    const page = await c.v.get('/account');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/theme/account.css"');
    for (const h2 of ['Orders', 'Downloads', 'Subscriptions', 'Saved addresses', 'Restock alerts'])
      expect(page.body).toContain(`>${h2}</h2>`);
    const crumb = await c.v.crumb();
    expect(page.body.match(/name="crumb" value="([^"]+)"/g)!.every((m) => m.includes(crumb))).toBe(true);
    const out = await formPost(c.v, '/api/site-users/account/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/account/login');
    expect((await c.v.get('/account')).headers.location).toBe('/account/login');
  });

  it('states the password rule on the sign-up and reset pages', async () => {
    const v = new Visitor(t.app);
    for (const url of ['/account/signup', '/account/reset?token=abc']) {
      const r = await v.get(url);
      expect(r.body).toContain(siteUserMessages.PASSWORD_TOO_SHORT);
      expect(r.body).toMatch(/aria-describedby="[a-z-]+-password-hint"/);
    }
    // The header of every page links to the account.
    expect((await v.get('/')).body).toMatch(/<a class="site-account" href="\/account">/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import {
  commerce,
  donations as donationText,
  forms,
  relatedProducts as relatedText,
  reviews as reviewText,
} from '../../../src/core/messages.js';
import { linkKey, signLink } from '../../../src/server/signed-links.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
const REVIEWS = '/api/reviews';
let seq = 0;
const key = () => `rv-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(APP_KINDS)('reviews, related products and donations on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let ids: Record<string, string>;
  const sessions = new Map<number, string>();

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    const owners = new OwnerService(t.database);
    for (const role of [Role.EDITOR, Role.MODERATOR, Role.BILLING, Role.STORE_MANAGER]) {
      const o = await owners.create({
        websiteId: t.seed.websiteId,
        email: `r${role}@example.com`,
        password: 'a long enough password',
        role,
      });
      sessions.set(role, (await owners.startSession(o.id)).token);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const as = (role: number) => {
    const v = new Visitor(t.app);
    v.cookies.set('tessera_owner', sessions.get(role)!);
    return v;
  };

  async function order(email: string, lines: Array<[string, string]>): Promise<string> {
    const v = new Visitor(t.app);
    for (const [item, sku] of lines) expect((await v.send('POST', ADD, { itemId: ids[item], sku, quantity: 1 })).statusCode).toBe(200);
    const r = await v.send('POST', PLACE, await confirmed(v, { email, shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }));
    expect(r.statusCode, r.body).toBe(200);
    return r.json().purchaseConfirmation.id;
  }

  const requestsOf = (orderId: string) =>
    rows<{ id: string; status: string; run_at: string }>(
      t.database.db,
      sql`select id, status, run_at from review_requests where order_id = ${orderId}`,
    );
  const reviewMails = (to: string) =>
    rows<{ subject: string; text_body: string; html_body: string }>(
      t.database.db,
      sql`select subject, text_body, html_body from mail_outbox where kind = 'review-request' and to_address = ${to}`,
    );

  /** Makes an order's review request job due now and runs the queue. */
  async function sendDue(orderId: string) {
    await t.database.db.execute(
      sql`update jobs set run_at = now() - interval '1 second' where kind = 'reviews:request' and payload->>'requestId' in (select id from review_requests where order_id = ${orderId})`,
    );
    await t.app.services.jobs.runDue();
  }

  /** An order, delivered and its request emailed: the token from the email. */
  async function deliveredOrder(email: string, lines: Array<[string, string]>): Promise<{ orderId: string; token: string; link: string }> {
    const orderId = await order(email, lines);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${orderId}/fulfil`)).statusCode).toBe(200);
    await sendDue(orderId);
    const mails = await reviewMails(email);
    expect(mails).toHaveLength(1);
    const link = /https?:\/\/[^\s]+\/reviews\/request\/([A-Za-z0-9._-]+)/.exec(mails[0]!.text_body)!;
    return { orderId, token: link[1]!, link: new URL(link[0]).pathname };
  }

  it('emails the review request only after the order is marked delivered, once, after the delay; a refund before then cancels it', async () => {
    const email = `buyer-${kind}-1@example.com`;
    const orderId = await order(email, [['ceramic-pour-over-set', 'POUR-OVER']]);
    expect(await requestsOf(orderId)).toEqual([]);
    await t.app.services.jobs.runDue();
    expect(await reviewMails(email)).toEqual([]);

    const before = Date.now();
    expect((await owner.send('POST', `/api/checkout/admin/orders/${orderId}/fulfil`)).statusCode).toBe(200);
    const [req] = await requestsOf(orderId);
    expect(req!.status).toBe('scheduled');
    const delay = new Date(req!.run_at).getTime() - before;
    expect(delay).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(delay).toBeLessThan(7 * 24 * 3600_000 + 60_000);
    // Not due yet: nothing is sent.
    await t.app.services.jobs.runDue();
    expect(await reviewMails(email)).toEqual([]);

    await sendDue(orderId);
    const mails = await reviewMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('How was your order');
    expect(mails[0]!.text_body).toContain('Ceramic Pour-Over Set');
    expect(mails[0]!.text_body).toMatch(/\/reviews\/request\/[0-9a-f]{24}\.[A-Za-z0-9_-]{43}/);
    expect((await requestsOf(orderId))[0]!.status).toBe('sent');
    // A second fulfil is refused and no second request or email appears.
    expect((await owner.send('POST', `/api/checkout/admin/orders/${orderId}/fulfil`)).statusCode).toBe(409);
    await sendDue(orderId);
    expect(await reviewMails(email)).toHaveLength(1);
    expect(await requestsOf(orderId)).toHaveLength(1);

    // Refunded after delivery but before the email: skipped, no email.
    const email2 = `buyer-${kind}-2@example.com`;
    const refunded = await order(email2, [['ceramic-pour-over-set', 'POUR-OVER']]);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${refunded}/fulfil`)).statusCode).toBe(200);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${refunded}/refund`)).statusCode).toBe(200);
    await sendDue(refunded);
    expect(await reviewMails(email2)).toEqual([]);
    expect((await requestsOf(refunded))[0]!.status).toBe('skipped');

    // Turned off while a request waits: it is not sent.
    const email4 = `buyer-${kind}-4@example.com`;
    const waiting = await order(email4, [['ceramic-pour-over-set', 'POUR-OVER']]);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${waiting}/fulfil`)).statusCode).toBe(200);
    expect((await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { requestsEnabled: false } })).statusCode).toBe(200);
    await sendDue(waiting);
    expect(await reviewMails(email4)).toEqual([]);
    expect((await requestsOf(waiting))[0]!.status).toBe('skipped');
    // While off, a delivery makes no request at all.
    const off = await order(`buyer-${kind}-5@example.com`, [['ceramic-pour-over-set', 'POUR-OVER']]);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${off}/fulfil`)).statusCode).toBe(200);
    expect(await requestsOf(off)).toEqual([]);
    expect((await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { requestsEnabled: true } })).statusCode).toBe(200);

    // The owner's delay setting is used for the next delivery.
    expect(
      (await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { requestDelayHours: 48 } })).json().settings.requestDelayHours,
    ).toBe(48);
    const third = await order(`buyer-${kind}-3@example.com`, [['bike-tune-up', 'SERVICE-TUNEUP']]);
    expect((await owner.send('POST', `/api/checkout/admin/orders/${third}/fulfil`)).statusCode).toBe(200);
    const d = new Date((await requestsOf(third))[0]!.run_at).getTime() - Date.now();
    expect(Math.abs(d - 48 * 3600_000)).toBeLessThan(60_000);
    expect((await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { requestDelayHours: 7 * 24 } })).statusCode).toBe(200);
    expect((await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { requestDelayHours: -1 } })).statusCode).toBe(400);
    expect((await owner.send('PUT', `${REVIEWS}/admin/settings`, { settings: { nope: 1 } })).statusCode).toBe(400);
  });

  it('the reviews request page (209) opens only with a valid signed token, and a review names a product of that order', async () => {
    const { token, link } = await deliveredOrder(`buyer-${kind}-token@example.com`, [['ceramic-pour-over-set', 'POUR-OVER']]);
    const v = new Visitor(t.app);
    const page = await v.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Review your purchase');
    expect(page.body).toContain('Ceramic Pour-Over Set');
    expect((await v.get(`${link}?format=json`)).json().pageType).toBe(209);

    const [id, sig] = token.split('.');
    const forged = [
      `${id}.${sig!.slice(0, -2)}AA`,
      `${'0'.repeat(24)}.${sig}`,
      'nonsense',
      signLink(await linkKey(t.database), 'donation', id!),
    ];
    for (const bad of forged) {
      const r = await v.get(`/reviews/request/${encodeURIComponent(bad)}`);
      expect(r.statusCode).toBe(404);
      expect(r.body).toContain(reviewText.TOKEN_INVALID);
      const post = await v.send('POST', REVIEWS, {
        token: bad,
        itemId: ids['ceramic-pour-over-set'],
        rating: 5,
        body: 'Great',
        authorName: 'Eve',
      });
      expect(post.statusCode).toBe(403);
      expect(post.json().message).toBe(reviewText.TOKEN_INVALID);
    }
    const other = await v.send('POST', REVIEWS, {
      token,
      itemId: ids['merino-wool-throw'],
      rating: 5,
      body: 'Never bought it',
      authorName: 'Eve',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(reviewText.NOT_IN_ORDER);
    // Without the crumb, nothing is written.
    expect(
      (
        await v.send(
          'POST',
          REVIEWS,
          { token, itemId: ids['ceramic-pour-over-set'], rating: 5, body: 'x', authorName: 'Eve' },
          { crumb: false },
        )
      ).statusCode,
    ).toBe(403);
    expect(await rows(t.database.db, sql`select id from product_reviews where request_id = ${id}`)).toEqual([]);
    // Two posts of the same review at once: one is kept, the other is told it exists.
    const both = await Promise.all(
      [0, 1].map(() =>
        new Visitor(t.app).send('POST', REVIEWS, {
          token,
          itemId: ids['ceramic-pour-over-set'],
          rating: 5,
          body: 'Twice',
          authorName: 'Eve',
        }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await rows(t.database.db, sql`select id from product_reviews where request_id = ${id}`)).toHaveLength(1);
  });

  it('refuses bad review input with the field message and writes nothing', async () => {
    const { token } = await deliveredOrder(`buyer-${kind}-bad@example.com`, [['ceramic-pour-over-set', 'POUR-OVER']]);
    const itemId = ids['ceramic-pour-over-set'];
    const v = new Visitor(t.app);
    const good = { token, itemId, rating: 4, body: 'Lovely dripper.', authorName: 'Ada' };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...good, rating: 0 }, 'rating', reviewText.RATING_REQUIRED],
      [{ ...good, rating: 6 }, 'rating', reviewText.RATING_REQUIRED],
      [{ ...good, rating: 3.5 }, 'rating', reviewText.RATING_REQUIRED],
      [{ ...good, rating: 'many' }, 'rating', reviewText.RATING_REQUIRED],
      [{ ...good, rating: undefined }, 'rating', reviewText.RATING_REQUIRED],
      [{ ...good, body: '   ' }, 'body', reviewText.BODY_REQUIRED],
      [{ ...good, body: 'x'.repeat(5001) }, 'body', reviewText.BODY_TOO_LONG],
      [{ ...good, body: 42 }, 'body', reviewText.BODY_REQUIRED],
      [{ ...good, authorName: '' }, 'authorName', reviewText.NAME_REQUIRED],
      [{ ...good, authorName: 'n'.repeat(81) }, 'authorName', reviewText.NAME_TOO_LONG],
      [{ ...good, title: 't'.repeat(121) }, 'title', reviewText.TITLE_TOO_LONG],
    ];
    for (const [body, field, message] of cases) {
      const r = await new Visitor(t.app).send('POST', REVIEWS, body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.json().errors[field]).toBe(message);
    }
    expect((await v.send('POST', REVIEWS, '{not json')).statusCode).toBe(400);
    expect((await v.send('POST', REVIEWS, { ...good, body: 'nul\u0000byte' })).statusCode).toBe(400);
    expect(await rows(t.database.db, sql`select id from product_reviews where request_id = ${token.split('.')[0]!}`)).toEqual([]);
    // A plain form post with a mistake shows the page again with the message, as a 400.
    const crumb = await v.crumb();
    const form = await v.send(
      'POST',
      REVIEWS,
      new URLSearchParams({ crumb, token, itemId, rating: '', body: 'ok', authorName: 'Ada' }).toString(),
      {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(form.statusCode).toBe(400);
    expect(form.headers['content-type']).toContain('text/html');
    expect(form.body).toContain(reviewText.RATING_REQUIRED);
  });

  it('owner moderation decides what the product page shows: average, count, reviews tab, anchor link and JSON-LD', async () => {
    const itemId = ids['houseplant-field-guide'];
    const product = '/shop/p/houseplant-field-guide';
    const a = await deliveredOrder(`buyer-${kind}-m1@example.com`, [['houseplant-field-guide', 'EBOOK-PLANTS']]);
    const b = await deliveredOrder(`buyer-${kind}-m2@example.com`, [['houseplant-field-guide', 'EBOOK-PLANTS']]);
    const c = await deliveredOrder(`buyer-${kind}-m3@example.com`, [['houseplant-field-guide', 'EBOOK-PLANTS']]);
    const v = new Visitor(t.app);
    const submit = async (token: string, rating: number, body: string, authorName: string) => {
      const r = await v.send('POST', REVIEWS, { token, itemId, rating, body, authorName, title: `${rating} stars` });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().review.status).toBe('pending');
      return r.json().review.id as string;
    };
    const r1 = await submit(a.token, 5, 'Clear and practical <b>advice</b>.', 'Ana');
    const r2 = await submit(b.token, 4, 'Good, a little short. </script><script>alert(1)</script>', 'Ben');
    // As a plain form post (works without JavaScript): a 303 back to the page, which thanks the buyer.
    const crumb = await v.crumb();
    const form = await v.send(
      'POST',
      REVIEWS,
      new URLSearchParams({ crumb, token: c.token, itemId, rating: '1', body: 'Not for me.', authorName: 'Cy' }).toString(),
      {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe(`${c.link}?done=${itemId}`);
    expect((await v.get(String(form.headers.location))).body).toContain(reviewText.THANKS);
    // One review per product per order.
    const again = await v.send('POST', REVIEWS, { token: a.token, itemId, rating: 1, body: 'Changed my mind', authorName: 'Ana' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(reviewText.ALREADY_REVIEWED);

    // Pending reviews are not shown.
    let html = (await v.get(product)).body;
    expect(html).toContain('Reviews (0)');
    expect(html).not.toContain('Clear and practical');
    expect(html).not.toContain('aggregateRating');

    const pending = await owner.get(`${REVIEWS}/admin/reviews?status=pending`);
    expect(pending.statusCode).toBe(200);
    expect(pending.json().reviews.filter((r: { itemId: string }) => r.itemId === itemId)).toHaveLength(3);
    for (const id of [r1, r2])
      expect((await owner.send('POST', `${REVIEWS}/admin/reviews/${id}/approve`)).json().review.status).toBe('approved');
    const audited = await rows<{ action: string; account_id: string }>(
      t.database.db,
      sql`select action, account_id from audit_log where entity_id = ${r1}`,
    );
    expect(audited.map((a) => a.action)).toEqual(['review.approve']);
    expect(audited[0]!.account_id).toBeTruthy();
    const cid = pending.json().reviews.find((r: { authorName: string }) => r.authorName === 'Cy').id;
    expect((await owner.send('POST', `${REVIEWS}/admin/reviews/${cid}/reject`)).json().review.status).toBe('rejected');

    html = (await v.get(product)).body;
    expect(html).toContain('Reviews (2)');
    expect(html).toContain('4.5 out of 5 stars');
    expect(html).toContain('2 reviews');
    expect(html).toContain('href="#reviews"');
    expect(html).toContain('data-reviews-tab');
    expect(html).toContain('id="reviews"');
    expect(html).toContain('Clear and practical &lt;b&gt;advice&lt;/b&gt;.');
    expect(html).not.toContain('Not for me.');
    // Text a buyer wrote never becomes markup, in the page or in the structured data.
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    // The page carries several JSON-LD blocks (breadcrumbs too): the Product one holds the rating.
    const blocks = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map(
      (m) => JSON.parse(m[1]!) as { '@type'?: string; review: unknown[] },
    );
    const ld = blocks.find((b) => b['@type'] === 'Product')!;
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'The Houseplant Field Guide (eBook)',
      aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.5', reviewCount: 2 },
    });
    expect(ld.review).toHaveLength(2);
    expect(ld.review[0]).toMatchObject({ '@type': 'Review', reviewRating: { ratingValue: expect.any(Number) } });
    const json = (await v.get(`${product}?format=json`)).json();
    expect(json.item.reviews).toMatchObject({ count: 2, average: 4.5, averageText: '4.5' });

    // Rejecting one changes the average and the count.
    await owner.send('POST', `${REVIEWS}/admin/reviews/${r2}/reject`);
    html = (await v.get(product)).body;
    expect(html).toContain('5.0 out of 5 stars');
    expect(html).toContain('1 review');
    // Unknown and malformed ids.
    expect((await owner.send('POST', `${REVIEWS}/admin/reviews/${'0'.repeat(24)}/approve`)).statusCode).toBe(404);
    expect((await owner.send('POST', `${REVIEWS}/admin/reviews/nope/approve`)).statusCode).toBe(404);
    expect((await owner.get(`${REVIEWS}/admin/reviews?status=weird`)).statusCode).toBe(400);
  });

  it("the review request email is in the owners' email preview (301), rendered by the real email function", async () => {
    const list = await owner.get('/api/config/engagement/emails');
    expect(list.statusCode).toBe(200);
    expect(list.json().emails).toContainEqual({ name: 'review-request', label: 'Review request' });
    const one = await owner.get('/api/config/engagement/emails/review-request');
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ pageType: 301, email: { subject: expect.stringContaining('How was your order') } });
    expect(one.json().email.html).toContain('Write a review');
    expect((await new Visitor(t.app).get('/api/config/engagement/emails/review-request')).statusCode).toBe(401);
  });

  it('roles: visitors are refused; moderators moderate; billing sees donors; editors do neither', async () => {
    const anon = new Visitor(t.app);
    expect((await anon.get(`${REVIEWS}/admin/reviews`)).statusCode).toBe(401);
    expect((await anon.send('POST', `${REVIEWS}/admin/reviews/${'0'.repeat(24)}/approve`)).statusCode).toBe(401);
    expect((await anon.get('/api/donations/admin/donations')).statusCode).toBe(401);
    expect((await as(Role.EDITOR).get(`${REVIEWS}/admin/reviews`)).statusCode).toBe(403);
    expect((await as(Role.EDITOR).get('/api/donations/admin/donations')).statusCode).toBe(403);
    expect((await as(Role.MODERATOR).get(`${REVIEWS}/admin/reviews`)).statusCode).toBe(200);
    expect((await as(Role.MODERATOR).get(`${REVIEWS}/admin/settings`)).statusCode).toBe(403);
    expect((await as(Role.MODERATOR).send('PUT', `${REVIEWS}/admin/related/${ids['gift-card']}`, { relatedItemIds: [] })).statusCode).toBe(
      403,
    );
    expect((await as(Role.BILLING).get('/api/donations/admin/donations')).statusCode).toBe(200);
    expect((await as(Role.BILLING).send('PUT', '/api/donations/admin/settings', { settings: { enabled: false } })).statusCode).toBe(403);
    expect((await as(Role.STORE_MANAGER).get(`${REVIEWS}/admin/related/${ids['gift-card']}`)).statusCode).toBe(200);
  });

  it('related products: owner-chosen first, else the same category, else the same store page; display hooks on the page', async () => {
    const page = async (urlId: string) => (await new Visitor(t.app).get(`/shop/p/${urlId}?format=json`)).json().item.relatedProducts;
    // The demo products have no categories: other products of the store page.
    let rel = await page('linen-camp-shirt');
    expect(rel.source).toBe('collection');
    expect(rel.items.map((i: { urlId: string }) => i.urlId)).not.toContain('linen-camp-shirt');
    expect(rel.items.length).toBe(4);

    // Same category.
    await t.database.db.execute(
      sql`update items set categories = '["Kitchen"]'::jsonb where id in (${ids['ceramic-pour-over-set']}, ${ids['engraved-cutting-board']})`,
    );
    await t.database.db.execute(sql`update items set categories = '["Home"]'::jsonb where id = ${ids['merino-wool-throw']}`);
    rel = await page('ceramic-pour-over-set');
    expect(rel.source).toBe('category');
    expect(rel.items.map((i: { urlId: string }) => i.urlId)).toEqual(['engraved-cutting-board']);
    rel = await page('merino-wool-throw');
    expect(rel).toBeNull();

    // Owner-chosen, in the owner's order.
    const url = `${REVIEWS}/admin/related/${ids['ceramic-pour-over-set']}`;
    const put = await owner.send('PUT', url, { relatedItemIds: [ids['gift-card'], ids['linen-camp-shirt']] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().related.map((r: { title: string }) => r.title)).toEqual(['Gift Card', 'Linen Camp Shirt']);
    rel = await page('ceramic-pour-over-set');
    expect(rel.source).toBe('owner');
    expect(rel.items.map((i: { urlId: string }) => i.urlId)).toEqual(['gift-card', 'linen-camp-shirt']);
    // One variant: an add button on the card; several: a link to choose options.
    expect(rel.items.map((i: { quickAdd: boolean }) => i.quickAdd)).toEqual([false, false]);
    const html = (await new Visitor(t.app).get('/shop/p/ceramic-pour-over-set')).body;
    expect(html).toContain('data-related-products');
    expect(html).toContain(`data-item-id="${ids['linen-camp-shirt']}"`);
    expect(html).toContain(relatedText.HEADING);

    await owner.send('PUT', url, { relatedItemIds: [ids['engraved-cutting-board']] });
    const board = (await page('ceramic-pour-over-set')).items[0];
    expect(board.quickAdd).toBe(false);
    await owner.send('PUT', url, { relatedItemIds: [ids['houseplant-field-guide']] });
    expect((await page('ceramic-pour-over-set')).items[0].quickAdd).toBe(true);
    expect((await new Visitor(t.app).get('/shop/p/ceramic-pour-over-set')).body).toMatch(
      /data-related-products[\s\S]*data-island="AddToCart"/,
    );

    // Bad input.
    const self = await owner.send('PUT', url, { relatedItemIds: [ids['ceramic-pour-over-set']] });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(relatedText.SELF);
    const unknown = await owner.send('PUT', url, { relatedItemIds: ['0'.repeat(24)] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(relatedText.UNKNOWN_PRODUCT);
    expect((await owner.send('PUT', url, { relatedItemIds: ['x'] })).statusCode).toBe(400);
    expect((await owner.send('PUT', url, { relatedItemIds: Array.from({ length: 13 }, () => ids['gift-card']) })).statusCode).toBe(400);
    expect((await owner.send('PUT', `${REVIEWS}/admin/related/${'0'.repeat(24)}`, { relatedItemIds: [] })).statusCode).toBe(404);
    // An empty list brings back the category fallback.
    await owner.send('PUT', url, { relatedItemIds: [] });
    expect((await page('ceramic-pour-over-set')).source).toBe('category');
  });

  it('donations: suggested and custom amounts in minor units, test-mode payment, contribution confirmed page, donors for the owner', async () => {
    const v = new Visitor(t.app);
    const donate = await v.get('/donate?format=json');
    expect(donate.json().pageType).toBe(203);
    expect(donate.json().donate.amounts.map((a: { label: string }) => a.label)).toEqual(['$10.00', '$25.00', '$50.00', '$100.00']);
    const form = (await v.get('/donate')).body;
    expect(form).toContain('name="amountCents" value="2500" checked');
    // A link can choose the amount: a suggested one, or any other as the custom amount.
    expect((await v.get('/donate?amount=5000')).body).toContain('name="amountCents" value="5000" checked');
    const linked = (await v.get('/donate?amount=1234&format=json')).json().donate;
    expect(linked).toMatchObject({ customChecked: true, values: { customAmount: '12.34' } });
    expect((await v.get('/donate?amount=1')).body).toContain('name="amountCents" value="2500" checked');

    const base = { donorName: 'Dee Donor', email: `dee-${kind}@example.com`, payment: CARD };
    const r = await v.send('POST', '/api/donations', { ...base, amountCents: 2500, idempotencyKey: key() });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().donation).toMatchObject({ amountCents: 2500, currency: 'USD', testMode: true });
    const confirmed = await v.get(r.json().confirmationUrl);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(donationText.CONFIRMED_TITLE);
    expect(confirmed.body).toContain('$25.00');
    expect(confirmed.body).toContain('test-mode contribution');
    expect((await v.get(`${r.json().confirmationUrl}?format=json`)).json().pageType).toBe(204);
    const tampered = String(r.json().confirmationUrl).slice(0, -3) + 'AAA';
    expect((await v.get(tampered)).statusCode).toBe(404);

    const custom = await v.send('POST', '/api/donations', { ...base, amountCents: 'custom', customAmount: '12.50', idempotencyKey: key() });
    expect(custom.json().donation.amountCents).toBe(1250);
    expect(
      (await v.send('POST', '/api/donations', { ...base, customAmount: '$1,000', idempotencyKey: key() })).json().donation.amountCents,
    ).toBe(100000);

    // The same form sent twice: one charge, one row.
    const k = key();
    const first = await v.send('POST', '/api/donations', { ...base, amountCents: 5000, idempotencyKey: k });
    const second = await v.send('POST', '/api/donations', { ...base, amountCents: 5000, idempotencyKey: k });
    expect(second.json()).toMatchObject({ duplicate: true, donation: { id: first.json().donation.id } });

    const count = async () => Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from donations`))[0]!.n);
    const n = await count();
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ ...base, idempotencyKey: key() }, 400, donationText.AMOUNT_REQUIRED],
      [{ ...base, amountCents: 'custom', customAmount: 'lots', idempotencyKey: key() }, 400, donationText.AMOUNT_INVALID],
      [{ ...base, customAmount: '12.345', idempotencyKey: key() }, 400, donationText.AMOUNT_INVALID],
      [{ ...base, customAmount: '-5', idempotencyKey: key() }, 400, donationText.AMOUNT_INVALID],
      [{ ...base, customAmount: '0.50', idempotencyKey: key() }, 400, donationText.tooSmall('$1.00')],
      [{ ...base, amountCents: 10_000_001, idempotencyKey: key() }, 400, donationText.tooLarge('$100,000.00')],
      [{ ...base, amountCents: 12.5, idempotencyKey: key() }, 400, donationText.AMOUNT_INVALID],
      [{ ...base, amountCents: 1000, donorName: ' ', idempotencyKey: key() }, 400, donationText.NAME_REQUIRED],
      [{ ...base, amountCents: 1000, email: 'not-an-email', idempotencyKey: key() }, 400, forms.INVALID_EMAIL],
      [{ ...base, amountCents: 1000, idempotencyKey: 'short' }, 400, donationText.KEY_INVALID],
      [
        { ...base, amountCents: 1000, payment: { ...CARD, number: '4000 0000 0000 0002' }, idempotencyKey: key() },
        402,
        'Your card was declined.',
      ],
    ];
    for (const [body, status, message] of bad) {
      const res = await v.send('POST', '/api/donations', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(await count()).toBe(n);

    // A plain form post (no JavaScript): 303 to the contribution confirmed page; a mistake shows the form again.
    const crumb = await v.crumb();
    const fields = {
      crumb,
      amountCents: '1000',
      customAmount: '',
      donorName: 'Form Donor',
      email: `form-${kind}@example.com`,
      message: '',
      cardNumber: '4242424242424242',
      cardExpiry: '12/40',
      cardCvc: '123',
      idempotencyKey: key(),
    };
    const post = (f: Record<string, string>) =>
      v.send('POST', '/api/donations', new URLSearchParams(f).toString(), {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const ok = await post(fields);
    expect(ok.statusCode).toBe(303);
    expect(String(ok.headers.location)).toMatch(/^\/donate\/confirmed\/[0-9a-f]{24}\./);
    const again = await post({ ...fields, amountCents: 'custom', customAmount: 'abc', idempotencyKey: key() });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(donationText.AMOUNT_INVALID);
    expect(again.body).not.toContain('4242424242424242');
    expect(again.body).toContain('value="Form Donor"');
    // Declined, then paid with another card from the page that came back: a new attempt, not the old decline.
    const declined = await post({ ...fields, cardNumber: '4000000000000002', idempotencyKey: key() });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    const freshKey = /name="idempotencyKey" value="([^"]+)"/.exec(declined.body)![1]!;
    const paid = await post({ ...fields, donorName: 'Second Try', amountCents: '1000', idempotencyKey: freshKey });
    expect(paid.statusCode).toBe(303);
    await v.get(String(paid.headers.location));

    // The owner's donor list.
    const list = await owner.get('/api/donations/admin/donations');
    expect(list.statusCode).toBe(200);
    expect(list.json().donations[0]).toMatchObject({ donorName: 'Second Try', amountCents: 1000, testMode: true });
    expect(list.json().donations[1]).toMatchObject({ donorName: 'Form Donor', amountCents: 1000, testMode: true });
    expect(list.json().totals).toEqual([{ currency: 'USD', amountCents: 2500 + 1250 + 100000 + 5000 + 1000 + 1000 }]);
    expect(JSON.stringify(list.json())).not.toContain('4242424242424242');

    // Settings: closed donations answer 404 with the message.
    expect(
      (await owner.send('PUT', '/api/donations/admin/settings', { settings: { suggestedAmounts: [500, 1500], minimumCents: 500 } }))
        .statusCode,
    ).toBe(200);
    expect((await v.get('/donate?format=json')).json().donate.amounts.map((a: { cents: number }) => a.cents)).toEqual([500, 1500]);
    expect((await owner.send('PUT', '/api/donations/admin/settings', { settings: { minimumCents: 20_000_000 } })).statusCode).toBe(400);
    expect((await owner.send('PUT', '/api/donations/admin/settings', { settings: { suggestedAmounts: [] } })).statusCode).toBe(400);
    await owner.send('PUT', '/api/donations/admin/settings', { settings: { enabled: false } });
    expect((await v.get('/donate')).statusCode).toBe(404);
    const closed = await v.send('POST', '/api/donations', { ...base, amountCents: 1500, idempotencyKey: key() });
    expect(closed.statusCode).toBe(404);
    expect(closed.json().message).toBe(donationText.CLOSED);
    await owner.send('PUT', '/api/donations/admin/settings', {
      settings: { enabled: true, suggestedAmounts: [1000, 2500, 5000, 10000], minimumCents: 100 },
    });
  });

  it('rate limits review and donation posts with a 429', async () => {
    const v = new Visitor(t.app);
    let last = 0;
    let body = '';
    for (let i = 0; i < 12; i++) {
      const r = await v.send('POST', REVIEWS, { token: 'x', itemId: 'y', rating: 5, body: 'b', authorName: 'n' });
      last = r.statusCode;
      body = r.body;
    }
    expect(last).toBe(429);
    expect(JSON.parse(body).message).toBe(commerce.RATE_LIMITED);
    // Donations too (card testing is the abuse to expect): 30 a minute per address.
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await new Visitor(t.app).send('POST', '/api/donations', { amountCents: 1000 })).statusCode);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});

/**
 * Addresses in their country's format through checkout: the precheck refuses a subdivision not on the
 * country's list, a postcode that does not fit its pattern and a missing part the country requires, each on
 * its field with nothing saved; a good address is stored in parts (the region as its subdivision code, the
 * postcode normalised) and printed in the country's format on the confirmation page, in the confirmation
 * email, on the owner's order screen and in the new-order email. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { CARD, confirmed } from '../../helpers/orders.js';
import { UNKNOWN_COUNTRY } from '../../../src/core/countries.js';
import { cart as cartMessages } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';

const TOKYO = { name: 'Taro Yamada', line1: '1-2-3 Jingumae', line2: 'Shibuya-ku', region: '13', postalCode: '150-0001', country: 'JP' };
const TORONTO = {
  name: 'Chloé Tremblay',
  line1: '100 Queen St W',
  city: 'Toronto',
  region: 'ontario',
  postalCode: 'm5h  2n2',
  country: 'CA',
};
const LONDON = { name: 'Ada Lovelace', line1: '10 Downing St', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' };

let seq = 0;

describe.each(DB_KINDS)('addresses in their country’s format on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const ship = await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Worldwide', kind: 'flat', priceCents: 900 });
    expect(ship.statusCode, ship.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function shopper(): Promise<Visitor> {
    const v = new Visitor(t.app);
    const r = await v.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
    expect(r.statusCode, r.body).toBe(200);
    return v;
  }
  const place = async (v: Visitor, email: string, shippingAddress: Record<string, string>) =>
    v.send('POST', PLACE, await confirmed(v, { email, shippingAddress, payment: CARD, idempotencyKey: `addr-${kind}-${++seq}` }));
  const ordersOf = async (email: string) =>
    Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from orders where email = ${email}`))[0]!.n);

  it('answers one country’s format for address forms, and 404 for a code that names no country', async () => {
    const v = new Visitor(t.app);
    const jp = await v.get('/api/address-format/JP');
    expect(jp.statusCode).toBe(200);
    expect(jp.headers['cache-control']).toBe('public, max-age=3600');
    const f = jp.json().format;
    expect(f).toMatchObject({
      country: 'JP',
      labels: { region: 'Prefecture', postalCode: 'Postal code' },
      required: expect.arrayContaining(['region']),
    });
    expect(f.subdivisions).toHaveLength(47);
    expect(f.subdivisions).toContainEqual(['13', 'Tokyo']);
    expect((await v.get('/api/address-format/gb')).json().format.labels).toEqual({
      city: 'Town/City',
      region: 'Province',
      postalCode: 'Postcode',
    });
    const nowhere = await v.get('/api/address-format/QQ');
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json().message).toBe(UNKNOWN_COUNTRY);
  });

  it('refuses a subdivision not on the list, a postcode of the wrong shape and a missing required part, each on its field; nothing is saved', async () => {
    const v = await shopper();
    const wrong = await place(v, 'wrong.jp@example.com', { ...TOKYO, region: 'Kanto', postalCode: '150-00011' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(cartMessages.UPDATE_MISSING_INFO);
    expect(wrong.json().errors).toEqual({
      'shippingAddress.region': 'Choose a prefecture from the list.',
      'shippingAddress.postalCode': 'Enter a valid postal code, for example 154-0023.',
    });
    const noProvince = await place(v, 'wrong.ca@example.com', { ...TORONTO, region: '', postalCode: '12345' });
    expect(noProvince.json().errors).toEqual({
      'shippingAddress.region': 'Required',
      'shippingAddress.postalCode': 'Enter a valid postal code, for example H3Z 2Y7.',
    });
    const zip = await place(v, 'wrong.us@example.com', {
      name: 'Ann',
      line1: '1 Main St',
      city: 'Portland',
      region: 'XX',
      postalCode: '9720',
      country: 'US',
    });
    expect(zip.json().errors).toEqual({
      'shippingAddress.region': 'Choose a state from the list.',
      'shippingAddress.postalCode': 'Enter a valid ZIP code, for example 95014.',
    });
    const ukNoTown = await place(v, 'wrong.uk@example.com', { ...LONDON, city: '', postalCode: 'LONDON' });
    expect(ukNoTown.json().errors).toEqual({
      'shippingAddress.city': 'Required',
      'shippingAddress.postalCode': 'Enter a valid postcode, for example EC1Y 8SY.',
    });
    // A long run of characters is refused by its length, never matched: 400, not a 500 or a stall.
    const long = await place(v, 'wrong.long@example.com', { ...LONDON, postalCode: 'A'.repeat(5000) });
    expect(long.statusCode).toBe(400);
    for (const email of [
      'wrong.jp@example.com',
      'wrong.ca@example.com',
      'wrong.us@example.com',
      'wrong.uk@example.com',
      'wrong.long@example.com',
    ])
      expect(await ordersOf(email)).toBe(0);
    // The cart is still there to pay once the address is right.
    expect((await place(v, 'right.jp@example.com', TOKYO)).statusCode).toBe(200);
  });

  it('stores a Japanese address in parts and prints it in Japan’s format on the confirmation, the email and the order screen', async () => {
    const v = await shopper();
    const r = await place(v, 'taro@example.com', TOKYO);
    expect(r.statusCode, r.body).toBe(200);
    const id = r.json().purchaseConfirmation.id as string;
    const [o] = await rows<{ shipping_address: unknown }>(t.database.db, sql`select shipping_address from orders where id = ${id}`);
    const stored = typeof o!.shipping_address === 'string' ? JSON.parse(o!.shipping_address) : o!.shipping_address;
    expect(stored).toEqual({ ...TOKYO, city: '' });
    const lines = ['Taro Yamada', '1-2-3 Jingumae', 'Shibuya-ku, Tokyo', '150-0001', 'Japan'];

    const page = await v.get(r.json().confirmationUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<address class="order-address">${lines.join('<br>')}</address>`);

    const mails = await rows<{ kind: string; text_body: string }>(
      t.database.db,
      sql`select kind, text_body from mail_outbox where ref = ${id} or ref = ${`owner-new-order:${id}`}`,
    );
    const confirmation = mails.find((m) => m.kind === 'order-confirmation')!;
    expect(confirmation.text_body).toContain(['Shipping to:', ...lines].join('\n'));
    // The owner's new-order email (on by default) prints it the same way.
    const ownerMail = mails.find((m) => m.kind === 'owner-new-order');
    expect(ownerMail?.text_body).toContain(['Ship to:', ...lines].join('\n'));

    const detail = await owner.get(`/api/checkout/admin/orders/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().order.shippingAddressLines).toEqual(lines);
    expect(detail.json().shopAddressLines).toEqual([]);
    // The shipping email says where the parcel goes, the same way.
    const fulfil = await owner.send('POST', `/api/checkout/admin/orders/${id}/fulfil`, { lines: [{ line: 0, quantity: 1 }], notify: true });
    expect(fulfil.statusCode, fulfil.body).toBe(200);
    const [shipped] = await rows<{ text_body: string }>(
      t.database.db,
      sql`select text_body from mail_outbox where ref = ${id} and kind = 'order-shipped'`,
    );
    expect(shipped!.text_body).toContain(['Shipping to:', ...lines].join('\n'));

    // The slip and invoice carry the shop's business address (Site settings) in its own country's format.
    const current = (await owner.get('/api/admin/site-settings')).json().settings;
    const business = {
      addressTitle: 'Fernhill',
      line1: '12 Alder St',
      line2: '',
      city: 'Portland',
      region: 'OR',
      postalCode: '97201',
      country: 'US',
    };
    expect((await owner.send('PUT', '/api/admin/site-settings', { ...current, location: business })).statusCode).toBe(200);
    expect((await owner.get(`/api/checkout/admin/orders/${id}`)).json().shopAddressLines).toEqual([
      'Fernhill',
      '12 Alder St',
      'Portland, OR 97201',
      'United States',
    ]);
  });

  it('stores a Canadian province by its code and the postcode in capitals, printed as Canada Post writes it', async () => {
    const v = await shopper();
    const r = await place(v, 'chloe@example.com', TORONTO);
    expect(r.statusCode, r.body).toBe(200);
    const id = r.json().purchaseConfirmation.id as string;
    const [o] = await rows<{ shipping_address: unknown }>(t.database.db, sql`select shipping_address from orders where id = ${id}`);
    const stored = typeof o!.shipping_address === 'string' ? JSON.parse(o!.shipping_address) : o!.shipping_address;
    expect(stored).toMatchObject({ region: 'ON', postalCode: 'M5H 2N2', city: 'Toronto' });
    const page = await v.get(r.json().confirmationUrl);
    expect(page.body).toContain('Chloé Tremblay<br>100 Queen St W<br>Toronto ON M5H 2N2<br>Canada');
    const uk = await shopper();
    const london = await place(uk, 'ada@example.com', LONDON);
    expect(london.statusCode, london.body).toBe(200);
    expect((await uk.get(london.json().confirmationUrl)).body).toContain(
      'Ada Lovelace<br>10 Downing St<br>London<br>SW1A 2AA<br>United Kingdom',
    );
  });
});

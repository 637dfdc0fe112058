import { FREE_ABOVE_NEEDS_AMOUNT, unknownCountries } from '../../../src/core/store-rules.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';

const API = '/api/checkout/admin';
const CLASH = 'A coupon with that code already exists.';

/** Editing shipping options, tax rules and coupons: PUT checks what POST checks, in the same words. */
describe.each(APP_KINDS)('owner edits of shipping options, tax rules and coupons on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  const created = async (url: string, body: unknown): Promise<{ id: string } & Record<string, unknown>> => {
    const r = await owner.send('POST', url, body);
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    return j[Object.keys(j)[0]!];
  };

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a bad value gets the same status, message and field messages from PUT as from POST, and changes nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, Array<Record<string, unknown>>]> = [
      [
        'shipping-options',
        { name: 'Standard', kind: 'flat', priceCents: 599, countries: ['US'] },
        [
          { name: '', kind: 'flat' },
          { name: 'x'.repeat(101), kind: 'flat' },
          { name: 'Standard', kind: 'flat', countries: ['USA'] },
          { name: 'Standard', kind: 'flat', priceCents: -1 },
          { name: 'Standard', kind: 'flat', priceCents: 1.5 },
          { name: 'Standard', kind: 'weight', weightRates: [] },
          { name: 'Standard', kind: 'weight', weightRates: [{ upToGrams: 0, priceCents: 100 }] },
          { name: 'Standard', kind: 'teleport' },
          { name: 'a\u0000b', kind: 'flat' },
          { name: 'Standard', kind: 'flat', countries: ['US', 'ZZ'] },
          { name: 'Free over', kind: 'free_above', priceCents: 999 },
        ],
      ],
      [
        'tax-rules',
        { name: 'Oregon', country: 'US', region: 'OR', rateBasisPoints: 0 },
        [
          { name: 'Oregon', country: 'USA', rateBasisPoints: 0 },
          { name: 'Oregon', country: 'QQ', rateBasisPoints: 0 },
          { name: 'Oregon', country: 'US', rateBasisPoints: 10001 },
          { name: 'Oregon', country: 'US', rateBasisPoints: 8.5 },
          { name: '', country: 'US', rateBasisPoints: 0 },
          { name: 'Oregon', country: 'US', region: 'x'.repeat(21), rateBasisPoints: 0 },
        ],
      ],
      [
        'coupons',
        { code: 'EDITME', kind: 'percent', percentBasisPoints: 1000 },
        [
          { code: 'X', kind: 'percent', percentBasisPoints: 1000 },
          { code: 'NO SPACES', kind: 'percent', percentBasisPoints: 1000 },
          { code: 'EDITME', kind: 'percent' },
          { code: 'EDITME', kind: 'percent', percentBasisPoints: 10001 },
          { code: 'EDITME', kind: 'fixed' },
          { code: 'EDITME', kind: 'fixed', amountCents: -5 },
          { code: 'EDITME', kind: 'percent', percentBasisPoints: 1000, usageLimit: -1 },
        ],
      ],
    ];
    for (const [area, good, bad] of cases) {
      const row = await created(`${API}/${area}`, good);
      const before = (await owner.get(`${API}/${area}`)).body;
      for (const body of bad) {
        const p = await owner.send('POST', `${API}/${area}`, body);
        const u = await owner.send('PUT', `${API}/${area}/${row.id}`, body);
        expect(p.statusCode, `${area} POST ${JSON.stringify(body)} -> ${p.body}`).toBe(400);
        expect(u.statusCode, `${area} PUT ${JSON.stringify(body)} -> ${u.body}`).toBe(400);
        expect(u.json(), `${area} ${JSON.stringify(body)}`).toEqual(p.json());
        expect(Object.keys(u.json().errors ?? {}).length, u.body).toBeGreaterThan(0);
      }
      expect((await owner.get(`${API}/${area}`)).body).toBe(before);
    }
  });

  it('says which codes name no country, and refuses a "free above" rate without its threshold', async () => {
    const nowhere = await owner.send('POST', `${API}/shipping-options`, { name: 'Abroad', kind: 'flat', countries: ['gb', 'zz', 'QQ'] });
    expect(nowhere.statusCode).toBe(400);
    expect(Object.values(nowhere.json().errors)).toEqual([unknownCountries(['zz', 'QQ'])]);
    expect(unknownCountries(['zz', 'QQ'])).toBe('These are not country codes: ZZ, QQ.');
    const tax = await owner.send('POST', `${API}/tax-rules`, { name: 'Nowhere', country: 'zz', rateBasisPoints: 500 });
    expect(Object.values(tax.json().errors)).toEqual(['ZZ is not a country code.']);
    const free = await owner.send('POST', `${API}/shipping-options`, { name: 'Free over', kind: 'free_above', priceCents: 999 });
    expect(free.statusCode).toBe(400);
    expect(free.json().errors).toEqual({ freeAboveCents: FREE_ABOVE_NEEDS_AMOUNT });
    // Every country is known, not only the few the checkout used to offer.
    const far = await owner.send('POST', `${API}/shipping-options`, {
      name: 'Far',
      kind: 'flat',
      countries: ['PT', 'BE', 'PL', 'IN', 'XK'],
    });
    expect(far.statusCode, far.body).toBe(200);
  });

  it('a good edit is stored and listed; an unknown or malformed id is refused', async () => {
    const o = await created(`${API}/shipping-options`, { name: 'Courier', kind: 'flat', priceCents: 900 });
    const u = await owner.send('PUT', `${API}/shipping-options/${o.id}`, {
      name: 'Courier (next day)',
      kind: 'free_above',
      priceCents: 1200,
      freeAboveCents: 8000,
      countries: ['us', 'CA'],
    });
    expect(u.statusCode, u.body).toBe(200);
    const listed = (await owner.get(`${API}/shipping-options`)).json().shippingOptions.find((x: { id: string }) => x.id === o.id);
    expect(listed).toMatchObject({
      name: 'Courier (next day)',
      kind: 'free_above',
      priceCents: 1200,
      freeAboveCents: 8000,
      countries: ['US', 'CA'],
    });

    const r = await created(`${API}/tax-rules`, { name: 'Texas', country: 'US', region: 'TX', rateBasisPoints: 625 });
    expect(
      (
        await owner.send('PUT', `${API}/tax-rules/${r.id}`, {
          name: 'Texas state',
          country: 'us',
          region: 'tx',
          rateBasisPoints: 825,
          appliesToShipping: true,
        })
      ).statusCode,
    ).toBe(200);
    expect((await owner.get(`${API}/tax-rules`)).json().taxRules.find((x: { id: string }) => x.id === r.id)).toMatchObject({
      name: 'Texas state',
      country: 'US',
      region: 'TX',
      rateBasisPoints: 825,
      appliesToShipping: true,
    });

    for (const area of ['shipping-options', 'tax-rules', 'coupons']) {
      const good =
        area === 'shipping-options'
          ? { name: 'A', kind: 'flat' }
          : area === 'tax-rules'
            ? { name: 'A', country: 'US', rateBasisPoints: 0 }
            : { code: 'NOBODY', kind: 'free_shipping' };
      const missing = await owner.send('PUT', `${API}/${area}/000000000000000000000000`, good);
      expect(missing.statusCode, missing.body).toBe(404);
      const malformed = await owner.send('PUT', `${API}/${area}/nope`, good);
      expect(malformed.statusCode, malformed.body).toBe(400);
      expect(malformed.json().message).toBe('id: Unknown id.');
    }
  });

  it('a coupon code clash is refused by PUT as by POST (409, in the same words, named on the code field); keeping its own code is fine', async () => {
    const a = await created(`${API}/coupons`, { code: 'SPRING', kind: 'percent', percentBasisPoints: 1500 });
    const b = await created(`${API}/coupons`, { code: 'SUMMER', kind: 'fixed', amountCents: 500 });
    const post = await owner.send('POST', `${API}/coupons`, { code: 'spring', kind: 'free_shipping' });
    const put = await owner.send('PUT', `${API}/coupons/${b.id}`, { code: ' spring ', kind: 'fixed', amountCents: 700 });
    expect(post.statusCode).toBe(409);
    expect(put.statusCode).toBe(409);
    expect(put.json()).toEqual(post.json());
    expect(put.json()).toMatchObject({ message: CLASH, errors: { code: CLASH } });
    const listed = (await owner.get(`${API}/coupons`)).json().coupons;
    expect(listed.find((x: { id: string }) => x.id === b.id)).toMatchObject({ code: 'SUMMER', amountCents: 500 });

    const same = await owner.send('PUT', `${API}/coupons/${a.id}`, { code: 'spring', kind: 'percent', percentBasisPoints: 2000 });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().coupon).toMatchObject({ code: 'SPRING', percentBasisPoints: 2000 });
  });

  it('edits racing to the same new code: one is stored, the others get the clash, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const racers = [];
      for (let i = 0; i < 6; i++)
        racers.push(await created(`${API}/coupons`, { code: `RACE-${round}-${i}`, kind: 'percent', percentBasisPoints: 500 }));
      const target = `RACE-WIN-${round}`;
      const answers = await Promise.all(
        racers.map((c) => owner.send('PUT', `${API}/coupons/${c.id}`, { code: target, kind: 'percent', percentBasisPoints: 700 })),
      );
      expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409, 409, 409]);
      for (const r of answers.filter((x) => x.statusCode === 409))
        expect(r.json()).toEqual({ error: CLASH, message: CLASH, errors: { code: CLASH } });
      const codes = (await owner.get(`${API}/coupons`)).json().coupons.map((c: { code: string }) => c.code);
      expect(codes.filter((c: string) => c === target)).toHaveLength(1);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { commerceWidgets } from '../../../src/server/commerce/widgets.js';

const ADD = '/api/commerce/shopping-cart/entries';

describe.each(APP_KINDS)('commerce pages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders the product page islands on the server through the widget formatters', async () => {
    const res = await new Visitor(t.app).get('/shop/p/linen-camp-shirt');
    expect(res.statusCode).toBe(200);
    for (const island of ['VariantSelect', 'QuantityInput', 'ProductScarcity', 'AddToCart'])
      expect(res.body).toContain(`data-island="${island}"`);
    expect(res.body).toContain('aria-label="Select Size"');
    expect(res.body).toContain('<option value="" selected="">Select Color</option>');
    expect(res.body).toMatch(
      /<input [^>]*aria-label="Quantity"[^>]*type="text" inputMode="numeric"[^>]*data-min="1" data-max="9999" data-step="1"[^>]*value="1"/,
    );
    expect(res.body).toMatch(/class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary"/);
    expect(res.body).toContain('data-product-price-for=');
  });

  it('shows sold out over sale, sale, Subscribe and no selector or quantity for digital products', async () => {
    const v = new Visitor(t.app);
    expect((await v.get('/shop/p/merino-wool-throw')).body).toContain('<div class="product-mark sold-out">sold out</div>');
    expect((await v.get('/shop/p/ceramic-pour-over-set')).body).toContain('<div class="product-mark sale">sale</div>');
    const sub = (await v.get('/shop/p/fresh-roast-coffee-subscription')).body;
    expect(sub).toContain('>Subscribe</span>');
    expect(sub).not.toContain('data-island="QuantityInput"><div');
    const ebook = (await v.get('/shop/p/houseplant-field-guide')).body;
    expect(ebook).not.toContain('class="product-variants"');
    expect(ebook).not.toContain('class="product-quantity-input"');
    const gift = (await v.get('/shop/p/gift-card')).body;
    expect(gift).toContain('Select Value');
  });

  it('puts quick-view buttons on the shop list', async () => {
    const res = await new Visitor(t.app).get('/shop');
    expect(res.body).toContain('data-island="QuickView"');
    expect(res.body).toMatch(/class="sqs-product-quick-view-button"[^>]*>Quick View/);
  });

  it('sold out takes precedence over sale in the product-status widget', () => {
    const r = commerceWidgets({ currency: 'USD' });
    const item = {
      id: 'x',
      title: 'X',
      structuredContent: {
        productType: 1,
        variants: [
          {
            sku: 'A',
            attributes: {},
            qtyInStock: 0,
            unlimited: false,
            onSale: true,
            priceMoney: { value: '100', currency: 'USD' },
            salePriceMoney: { value: '50', currency: 'USD' },
          },
        ],
      },
    };
    expect(r.render('product-status', { item, args: [], html: '', data: {}, locale: 'en-US' })).toBe(
      '<div class="product-mark sold-out">sold out</div>',
    );
    expect(r.render('like-button', { item, args: [], html: '', data: {}, locale: 'en-US' })).toBeUndefined();
    expect(r.render('add-to-cart-btn', { item: { id: 'post' }, args: [], html: 'x', data: {}, locale: 'en-US' })).toBeUndefined();
  });

  it('serves /cart (page type 200) with entries, totals, the empty state and the minimum subtotal', async () => {
    const v = new Visitor(t.app);
    const empty = await v.get('/cart');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('data-island="CartPage"');
    expect(empty.body).toContain('You have nothing in your shopping cart.');
    expect((await v.get('/cart?format=json')).json().pageType).toBe(200);
    await v.send('POST', ADD, { itemId: t.seed.productIds['linen-camp-shirt'], sku: 'SHIRT-S-NAVY', quantity: 2 });
    const full = await v.get('/cart');
    expect(full.body).toContain('Linen Camp Shirt');
    expect(full.body).toContain('$144.00');
    expect(full.body).toContain(`name="crumb" value="${v.cookies.get('crumb')}"`);
    expect(full.body).not.toContain('To check out');
    await t.app.services.websites.updateSettings(t.seed.websiteId, { storeSettings: { minimumOrderSubtotalCents: 20000 } });
    const min = await v.get('/cart');
    expect(min.body).toContain('To check out, your order subtotal must be $200.00 or more');
    await t.app.services.websites.updateSettings(t.seed.websiteId, { storeSettings: {} });
  });
});

/**
 * The product page's gallery, srcset and preload, the chosen variant (`?variant=` and the choice form without
 * JavaScript), the one sale price markup, sold-out option values, and the chosen variant's picture on every
 * cart line (cart JSON, cart page, checkout): the line's image is read in SQL, so on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { dressTheShirt, SHIRT_IMAGES as IMAGES } from '../../helpers/gallery-product.js';
import { DB_KINDS } from '../../helpers/db.js';

const ADD = '/api/commerce/shopping-cart/entries';
describe.each(DB_KINDS)('the product page gallery and variant pictures on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    await dressTheShirt(t.app, t.seed.productIds['linen-camp-shirt']!);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('draws every image with the seven widths, and preloads the one shown first with the same srcset and sizes', async () => {
    const body = (await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body;
    expect(body).toContain('data-island="ProductGallery"');
    for (const [name, alt] of IMAGES) {
      expect(body).toContain(`alt="${alt}"`);
      expect(body).toContain(`/demo-media/${name}.jpg?format=2500w 2500w`);
    }
    for (let i = 1; i <= 4; i++) expect(body).toContain(`aria-label="Show image ${i} of 4"`);
    const main =
      /<img class="product-detail__image" src="\/demo-media\/linen-shirt\.jpg" srcSet="([^"]+)" sizes="([^"]+)"[^>]*fetchPriority="high"/.exec(
        body,
      );
    expect(main).not.toBeNull();
    const widths = [...main![1].matchAll(/ (\d+)w/g)].map((m) => Number(m[1]));
    expect(widths).toEqual([100, 300, 500, 750, 1000, 1500, 2500]);
    const preload = /<link rel="preload" as="image" href="([^"]+)" imagesrcset="([^"]+)" imagesizes="([^"]+)"/.exec(body);
    expect(preload?.[1]).toBe('/demo-media/linen-shirt.jpg');
    expect(preload?.[2]).toBe(main![1].replace(/&amp;/g, '&'));
    expect(preload?.[3]).toBe(main![2]);
    // Related-product cards are resized too.
    expect(body).toMatch(
      /<li class="product-card"[^>]*>\s*<a class="product-card__link"[^>]*>\s*<span class="product-card__media"><img [^>]*srcset="[^"]*format=300w 300w[^>]*sizes="\(max-width: 432px\) 100vw, 280px"/,
    );
  });

  it('opens on the chosen variant for ?variant= and for the choice form, with its image, sale price and preload', async () => {
    const v = new Visitor(t.app);
    for (const url of [
      '/shop/p/linen-camp-shirt?variant=SHIRT-S-NAVY',
      '/shop/p/linen-camp-shirt?option.Size=S&option.Color=Navy&quantity=1',
    ]) {
      const body = (await v.get(url)).body;
      expect(body).toMatch(/<link rel="preload" as="image" href="\/demo-media\/gallery-2\.jpg"/);
      expect(body).toMatch(/class="product-gallery__slide is-current"[^>]*aria-label="Image 3 of 4"/);
      expect(body).toContain(
        '<div class="product-price" data-product-price-for="' +
          t.seed.productIds['linen-camp-shirt'] +
          '"><s class="original-price"><span class="visually-hidden">Original Price: </span>$72.00</s> <span class="sale-price"><span class="visually-hidden">Sale Price: </span>$56.00</span></div>',
      );
      expect(body).toMatch(/<option value="S" selected="">S<\/option>/);
      expect(body).toMatch(/<option value="Navy" selected="">Navy<\/option>/);
    }
    // Without a choice the price is 'from' the lowest, and no option is selected.
    const plain = (await v.get('/shop/p/linen-camp-shirt')).body;
    expect(plain).toContain('from $56.00');
    // The choice form: a GET of this page from the add form, after the add button.
    expect(plain).toMatch(
      /class="sqs-add-to-cart-button[^]*?<button type="submit" class="product-show-choice" formNoValidate="" formAction="\/shop\/p\/linen-camp-shirt" formMethod="get">Show this choice<\/button>/,
    );
  });

  it('marks an option value none of whose variants can be bought, keeping it selectable', async () => {
    const navy = (await new Visitor(t.app).get('/shop/p/linen-camp-shirt?option.Color=Navy')).body;
    expect(navy).toContain('<option value="L">L — sold out</option>');
    expect(navy).toContain('<option value="S">S</option>');
    const sand = (await new Visitor(t.app).get('/shop/p/linen-camp-shirt?option.Color=Sand')).body;
    expect(sand).toContain('<option value="L">L</option>');
  });

  it("puts the chosen variant's image on the cart line: cart JSON, cart page and checkout", async () => {
    const v = new Visitor(t.app);
    const itemId = t.seed.productIds['linen-camp-shirt']!;
    const navy = await v.send('POST', ADD, { itemId, sku: 'SHIRT-S-NAVY', quantity: 1 });
    expect(navy.statusCode, navy.body).toBe(200);
    const sand = await v.send('POST', ADD, { itemId, sku: 'SHIRT-S-SAND', quantity: 1 });
    expect(sand.statusCode, sand.body).toBe(200);
    const entries = sand.json().shoppingCart.entries as Array<{
      chosenVariant: { sku: string };
      image: { assetUrl: string; altText: string };
    }>;
    const bySku = Object.fromEntries(entries.map((e) => [e.chosenVariant.sku, e.image]));
    expect(bySku['SHIRT-S-NAVY']).toMatchObject({ assetUrl: '/demo-media/gallery-2.jpg', altText: 'The navy shirt' });
    expect(bySku['SHIRT-S-SAND']).toMatchObject({ assetUrl: '/demo-media/linen-shirt.jpg' });
    const added = navy.json().newlyAdded;
    expect(added.image.assetUrl).toBe('/demo-media/gallery-2.jpg');
    const cartPage = (await v.get('/cart')).body;
    expect(cartPage).toContain('gallery-2.jpg');
    const checkout = await v.get('/checkout');
    expect(checkout.statusCode).toBe(200);
    expect(checkout.body).toContain('gallery-2.jpg');
  });
});

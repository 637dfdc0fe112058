import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { Visitor, OWNER } from '../../helpers/app.js';
import { BlockType } from '../../../src/core/enums.js';
import { addBlock, addSection, createBlock, emptyLayout, BLOCK_KINDS, type PageLayout, type OpResult } from '../../../src/core/layout.js';
import { CONTACT_FORM_ID, NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}

/** A page with every block type the editor renders (every variant of each), one placeholder-only block, and a dark section. */
function everyBlock(refs: { journalId: string; productId: string; origin: string }): PageLayout {
  let n = 0;
  const ids = { newId: (p: string) => `${p}all${++n}` };
  const img = (i: number) => ({ assetUrl: `/demo-media/gallery-${i}.jpg`, originalSize: '1200x1200', altText: `Landscape ${i}` });
  const blocks = [
    createBlock(BlockType.HTML, {
      ...ids,
      data: { html: '<h2>Every block</h2><p>Rich <strong>text</strong> with <a href="/shop">a link to the shop</a>.</p>' },
    }),
    createBlock(BlockType.MARKDOWN, {
      ...ids,
      data: { markdown: '## Markdown heading\n\nSome *markdown* text and a [journal link](/journal).' },
    }),
    ...[
      BlockType.IMAGE_INLINE,
      BlockType.IMAGE_POSTER,
      BlockType.IMAGE_CARD,
      BlockType.IMAGE_OVERLAP,
      BlockType.IMAGE_COLLAGE,
      BlockType.IMAGE_STACK,
    ].map((v, i) =>
      createBlock(v, {
        ...ids,
        w: 6,
        data: {
          ...img((i % 4) + 1),
          title: `Image ${i + 1} title`,
          body: 'A few words about it.',
          link: '/gallery',
          linkLabel: `See image ${i + 1}`,
        },
      }),
    ),
    ...[BlockType.GALLERY_GRID, BlockType.GALLERY_SLIDESHOW, BlockType.GALLERY_CAROUSEL, BlockType.GALLERY_STACK].map((v, i) =>
      createBlock(v, { ...ids, data: { title: `Gallery ${i + 1}`, images: [1, 2, 3, 4].map(img) } }),
    ),
    createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Shop the collection', link: '/shop', style: 'primary' } }),
    createBlock(BlockType.SPACER, ids),
    createBlock(BlockType.HORIZONTAL_RULE, ids),
    createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Make it well, then make it again.', source: 'The workshop' } }),
    createBlock(BlockType.CODE, { ...ids, data: { code: '<b>escaped</b> & shown', raw: false, language: 'html' } }),
    createBlock(BlockType.CODE, { ...ids, data: { code: '<p class="raw-html-block">Raw HTML chosen by the owner</p>', raw: true } }),
    createBlock(BlockType.EMBED, { ...ids, data: { url: `${refs.origin}/search?q=linen`, title: 'Search results for linen' } }),
    createBlock(BlockType.VIDEO, { ...ids, data: { url: 'https://www.youtube.com/watch?v=abcdefghijk', title: 'Workshop tour video' } }),
    createBlock(BlockType.AUDIO, { ...ids, data: { url: '/demo-media/chime.wav', title: 'Shop bell', artist: 'Fernhill' } }),
    createBlock(BlockType.ALBUM, {
      ...ids,
      data: {
        title: 'Shop sessions',
        artist: 'Fernhill',
        tracks: [
          { title: 'Morning bell', url: '/demo-media/chime.wav' },
          { title: 'Closing bell', url: 'https://media.example.com/closing-bell.mp3' },
        ],
      },
    }),
    createBlock(BlockType.MAP, { ...ids, data: { title: 'Fernhill Shop', address: '12 River Street, Portland', zoom: 15 } }),
    createBlock(BlockType.FORM, { ...ids, data: { formId: CONTACT_FORM_ID } }),
    createBlock(BlockType.NEWSLETTER, {
      ...ids,
      data: { title: 'Letters from the workshop', description: 'One email a month.', formId: NEWSLETTER_FORM_ID },
    }),
    createBlock(BlockType.PRODUCT, { ...ids, w: 4, data: { productId: refs.productId } }),
    ...[BlockType.SUMMARY_WALL, BlockType.SUMMARY_CAROUSEL, BlockType.SUMMARY_LIST, BlockType.SUMMARY_GRID].map((v, i) =>
      createBlock(v, { ...ids, data: { collectionId: refs.journalId, title: `Journal summary ${i + 1}`, limit: 2 } }),
    ),
    createBlock(BlockType.ACCORDION, {
      ...ids,
      data: {
        items: [
          { title: 'Do you ship abroad?', body: '<p>Yes, to most countries.</p>' },
          { title: 'Can I return?', body: '<p>Within 30 days.</p>' },
        ],
      },
    }),
    createBlock(BlockType.SOCIAL_LINKS, {
      ...ids,
      data: {
        links: [
          { service: 'Instagram', url: 'https://instagram.com/fernhill' },
          { service: 'Email us', url: 'mailto:hello@example.com' },
        ],
      },
    }),
    createBlock(BlockType.SEARCH, { ...ids, data: { placeholder: 'Find something' } }),
    ...[BlockType.CHART_BAR, BlockType.CHART_LINE, BlockType.CHART_PIE].map((v, i) =>
      createBlock(v, {
        ...ids,
        data: {
          title: `Chart ${i + 1}`,
          columns: ['Made', 'Sold'],
          rows: [
            { label: 'Spring', values: [10, 7] },
            { label: 'Summer', values: [14, 12] },
            { label: 'Autumn', values: [9, 9] },
          ],
        },
      }),
    ),
    createBlock(BlockType.PRICING_PLAN, {
      ...ids,
      data: {
        plans: [
          {
            name: 'Weekend class',
            price: 4500,
            currency: 'USD',
            period: 'once',
            features: ['All tools', 'Lunch'],
            buttonLabel: 'Book the class',
            buttonLink: '/contact',
          },
          {
            name: 'Studio membership',
            price: 2500,
            currency: 'USD',
            period: 'month',
            features: ['Bench time'],
            buttonLabel: 'Join the studio',
            buttonLink: '/contact',
            featured: true,
          },
        ],
      },
    }),
    createBlock(BlockType.DONATION, {
      ...ids,
      data: { title: 'Keep the kiln lit', text: 'Gifts pay for clay and firing.', amounts: [700, 1500], allowCustom: true },
    }),
    createBlock(BlockType.TOCK, { ...ids, data: { note: 'not rendered on the site' } }),
  ];
  let l = must(addSection(emptyLayout(), 0, { ...ids, theme: 'white' }));
  for (const b of blocks) l = must(addBlock(l, l.sections[0].id, b));
  l = must(addSection(l, 1, { ...ids, theme: 'white', background: '#1a2b3c' }));
  l = must(addBlock(l, l.sections[1].id, createBlock(BlockType.HTML, { ...ids, data: { html: '<p>Light words on a dark section.</p>' } })));
  return l;
}

describe('every editor block on the public site', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite'), launchBrowser()]);
    const owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const created = await owner.send('POST', '/api/config/pages', { title: 'All blocks', urlId: 'all-blocks' });
    expect(created.statusCode).toBe(201);
    const layout = everyBlock({
      journalId: site.seed.collectionIds.journal,
      productId: site.seed.productIds['linen-camp-shirt'],
      origin: site.url,
    });
    const published = await owner.send('POST', `/api/editor/pages/${created.json().id}/publish`, { version: 0, layout });
    expect(published.statusCode, published.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('covers every block kind the editor renders', () => {
    const layout = everyBlock({ journalId: 'j', productId: 'p', origin: 'http://x' });
    const types = new Set(layout.sections.flatMap((s) => s.blocks.map((x) => x.type)));
    for (const k of BLOCK_KINDS) expect(types.has(k.type), k.name).toBe(true);
    const variants = new Set(layout.sections.flatMap((s) => s.blocks.map((x) => x.variant)));
    for (const k of BLOCK_KINDS) for (const v of k.variants) expect(variants.has(v), `${k.name} ${v}`).toBe(true);
  });

  it('renders them from stored data with JavaScript off', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`${site.url}/all-blocks`);
    expect(res?.status()).toBe(200);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'All blocks' }).isVisible()).resolves.toBe(true);
    // text and markdown
    expect(await main.getByRole('heading', { name: 'Every block' }).isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'a link to the shop' }).getAttribute('href')).toBe('/shop');
    expect(await main.getByRole('heading', { name: 'Markdown heading' }).isVisible()).toBe(true);
    // six image designs, four gallery designs
    for (let i = 1; i <= 6; i++) expect(await main.getByRole('link', { name: `See image ${i}` }).isVisible(), `image ${i}`).toBe(true);
    expect(await page.locator('.image-block').count()).toBe(6);
    expect(await page.locator('.gallery-block').count()).toBe(4);
    expect(await main.getByRole('img', { name: 'Landscape 3' }).count()).toBeGreaterThanOrEqual(4);
    // button, spacer, line, quote, code (escaped and raw)
    expect(await main.getByRole('link', { name: 'Shop the collection' }).isVisible()).toBe(true);
    expect(await page.locator('.spacer-block').count()).toBe(1);
    expect(await main.getByRole('separator').count()).toBeGreaterThanOrEqual(1);
    expect(await main.getByText('Make it well, then make it again.').isVisible()).toBe(true);
    expect(await page.locator('.code-block pre code').textContent()).toBe('<b>escaped</b> & shown');
    expect(await page.locator('.raw-html-block').textContent()).toBe('Raw HTML chosen by the owner');
    // embed, video, audio, map (no key: an address card)
    expect(await page.locator('iframe[title="Search results for linen"]').count()).toBe(1);
    expect(await page.locator('iframe[title="Workshop tour video"]').getAttribute('src')).toBe(
      'https://www.youtube-nocookie.com/embed/abcdefghijk',
    );
    expect(await page.locator('audio[aria-label="Shop bell"]').getAttribute('src')).toBe('/demo-media/chime.wav');
    // album: one native player and the list of its tracks
    expect(await page.locator('audio[aria-label="Shop sessions: Morning bell"]').getAttribute('src')).toBe('/demo-media/chime.wav');
    expect(await main.getByRole('list', { name: 'Shop sessions tracks' }).getByRole('link').allTextContents()).toEqual([
      'Morning bell',
      'Closing bell',
    ]);
    expect(await page.locator('.map-block address').textContent()).toContain('12 River Street, Portland');
    expect(await main.getByRole('link', { name: 'Open Fernhill Shop in a map' }).isVisible()).toBe(true);
    // form, newsletter, product
    expect(await page.locator('.fe-block--form form').count()).toBe(1);
    expect(await main.getByRole('heading', { name: 'Letters from the workshop' }).isVisible()).toBe(true);
    expect(await page.locator('.fe-block--newsletter form').count()).toBe(1);
    expect(await page.locator('.product-block .product-block__title').textContent()).toBe('Linen Camp Shirt');
    expect(
      await page
        .locator('.product-block')
        .getByRole('button', { name: /add to cart/i })
        .count(),
    ).toBe(1);
    // summaries of the journal in four designs
    for (const d of ['wall', 'carousel', 'list', 'grid'])
      expect(await page.locator(`.summary-block--${d} .summary-item`).count(), d).toBe(2);
    // accordion without JavaScript
    await main.getByText('Do you ship abroad?').click();
    expect(await main.getByText('Yes, to most countries.').isVisible()).toBe(true);
    // social links, search, charts, pricing plans
    expect(await main.getByRole('link', { name: 'Instagram' }).getAttribute('href')).toBe('https://instagram.com/fernhill');
    expect(await main.getByRole('searchbox', { name: 'Search' }).count()).toBeGreaterThanOrEqual(1);
    for (let i = 1; i <= 3; i++) expect(await main.getByRole('img', { name: new RegExp(`^Chart ${i}`) }).count(), `chart ${i}`).toBe(1);
    expect(await page.locator('.chart-block--pie path').count()).toBe(3);
    expect(await main.getByRole('link', { name: 'Join the studio' }).isVisible()).toBe(true);
    expect(await main.getByText('$25.00').isVisible()).toBe(true);
    // donation: a plain form posting to the donation call, with its amounts and a custom amount
    expect(await main.getByRole('heading', { name: 'Keep the kiln lit' }).isVisible()).toBe(true);
    expect(await page.locator('.fe-block--donation form').getAttribute('action')).toBe('/api/donations');
    expect(await main.getByRole('radio', { name: '$15.00' }).isChecked()).toBe(true);
    expect(await main.getByRole('textbox', { name: /^Other amount/ }).count()).toBe(1);
    expect(await main.getByRole('button', { name: 'Donate' }).isVisible()).toBe(true);
    // the placeholder-only block shows nothing, and nothing is broken around it
    expect(await page.locator('.fe-block').count()).toBe(39);
    expect(await page.content()).not.toContain('not rendered on the site');
    // the dark section: the dark-colour test gives it light text
    const colour = await page.getByText('Light words on a dark section.').evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe('rgb(255, 255, 255)');

    await context.close();
  }, 90_000);

  it('passes an axe-core scan without the site scripts and after the islands hydrate', async () => {
    // axe needs JavaScript itself: the page's own scripts are blocked instead, so the scanned DOM is the no-JS one.
    const bare = await b.browser.newContext();
    const page = await bare.newPage();
    await page.route(/\/assets\/.*\.js(\?|$)/, (route) => route.abort());
    await page.goto(`${site.url}/all-blocks`);
    expect(await page.locator('[data-hydrated="1"]').count()).toBe(0);
    await expectNoAxeViolations(page, { iframes: false });
    await bare.close();

    const full = await b.browser.newContext();
    const live = await full.newPage();
    await live.goto(`${site.url}/all-blocks`);
    await live.waitForFunction(() =>
      [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-hydrated') === '1'),
    );
    await expectNoAxeViolations(live, { iframes: false });
    await full.close();
  }, 90_000);

  it('lays blocks out on 12 columns on desktop and stacks them at phone width', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/all-blocks`);
    const first = page.locator('.fe-block--image').nth(0);
    const second = page.locator('.fe-block--image').nth(1);
    const [a, c] = [await first.boundingBox(), await second.boundingBox()];
    // Both images are 6 columns wide: about half the grid each.
    expect(Math.abs(a!.width - c!.width)).toBeLessThan(2);
    await page.setViewportSize({ width: 375, height: 800 });
    const phone = await first.boundingBox();
    const grid = await page.locator('.fe-grid').first().boundingBox();
    expect(phone!.width).toBeGreaterThan(grid!.width * 0.9);
    await context.close();
  });
});

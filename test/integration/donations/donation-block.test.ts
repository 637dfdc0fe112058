/**
 * The page editor's donation block: stored in a layout, published, rendered on the public page as a
 * plain form (no JavaScript) that posts to the donation call and reaches the contribution confirmed
 * page (204); it follows the donation beta flag and the donations feature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { BlockType } from '../../../src/core/enums.js';
import { donations as donationText, pageEditor as em } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';

const API = '/api/editor';
let n = 0;
const ids = { newId: (p: string) => `${p}d${++n}` };

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}

function layoutWith(data: Record<string, unknown>): { layout: PageLayout; blockId: string } {
  const block = createBlock(BlockType.DONATION, { ...ids, data });
  let l = must(addSection(emptyLayout(), 0, ids));
  l = must(addBlock(l, l.sections[0].id, block));
  return { layout: l, blockId: block.id };
}

/** The fields of the page's donation form as a browser would send them (the checked radio only). */
function formFields(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form class="donate-form" method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  expect(form, 'the donation form').not.toBeNull();
  const fields: Record<string, string> = {};
  for (const m of form![2].matchAll(/<input ([^>]*)>/g)) {
    const attr = (a: string) => new RegExp(`\\b${a}="([^"]*)"`).exec(m[1])?.[1];
    const name = attr('name');
    if (!name) continue;
    const type = attr('type') ?? 'text';
    if (type === 'radio' && !/\bchecked\b/.test(m[1])) continue;
    fields[name] = (attr('value') ?? '').replace(/&amp;/g, '&');
  }
  for (const m of form![2].matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[m[1]] = m[2];
  return { action: form![1], fields };
}

describe.each(APP_KINDS)('donation block on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('publishes a page with a donation block whose form, without JavaScript, pays in test mode and reaches the contribution confirmed page', async () => {
    const made = await owner.send('POST', `${API}/pages`, { title: 'Support the kiln' });
    expect(made.statusCode).toBe(201);
    const pageId = made.json().page.id as string;
    const { layout, blockId } = layoutWith({
      title: 'Help us fire the kiln',
      text: 'Every bit <counts>.',
      amounts: [700, 1500, 4000],
      allowCustom: true,
    });
    const published = await owner.send('POST', `${API}/pages/${pageId}/publish`, { version: 0, layout });
    expect(published.statusCode, published.body).toBe(200);
    const stored = await owner.get(`${API}/pages/${pageId}`);
    expect(stored.json().published.sections[0].blocks[0].data).toEqual({
      title: 'Help us fire the kiln',
      text: 'Every bit <counts>.',
      amounts: [700, 1500, 4000],
      allowCustom: true,
    });

    const v = new Visitor(t.app);
    const page = await v.get('/support-the-kiln');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Help us fire the kiln');
    expect(page.body).toContain('Every bit &lt;counts&gt;.');
    for (const label of ['$7.00', '$15.00', '$40.00']) expect(page.body).toContain(label);
    expect(page.body).toContain(`id="donate-${blockId}-custom-amount"`);
    expect(page.body).toContain('Test mode: no money is taken.');

    const { action, fields } = formFields(page.body);
    expect(action).toBe('/api/donations');
    expect(fields).toMatchObject({ amountCents: '1500', customAmount: '' });
    expect(fields.crumb).toBe(await v.crumb());
    const post = (f: Record<string, string>) =>
      v.send('POST', action, new URLSearchParams(f).toString(), {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const filled = {
      ...fields,
      donorName: 'Block Donor',
      email: `block-${kind}@example.com`,
      cardNumber: '4242424242424242',
      cardExpiry: '12/40',
      cardCvc: '123',
    };

    // A mistake comes back on the donate page with the block's amount kept as a custom amount.
    const wrong = await post({ ...filled, email: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('value="15.00"');

    const ok = await post(filled);
    expect(ok.statusCode, ok.body).toBe(303);
    const confirmedUrl = String(ok.headers.location);
    expect(confirmedUrl).toMatch(/^\/donate\/confirmed\//);
    const confirmed = await v.get(confirmedUrl);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(donationText.CONFIRMED_TITLE);
    expect(confirmed.body).toContain('$15.00');
    expect((await v.get(`${confirmedUrl}?format=json`)).json().pageType).toBe(204);
    const list = await owner.get('/api/donations/admin/donations');
    expect(list.json().donations[0]).toMatchObject({ donorName: 'Block Donor', amountCents: 1500, testMode: true });

    // The custom amount from the block's form.
    const custom = await post({ ...filled, amountCents: 'custom', customAmount: '9.25', idempotencyKey: `${fields.idempotencyKey}x` });
    expect(custom.statusCode).toBe(303);
    expect((await owner.get('/api/donations/admin/donations')).json().donations[0]).toMatchObject({ amountCents: 925 });
  });

  it('offers no custom amount when the block does not allow one, and shows nothing when the beta block or donations are off', async () => {
    const made = await owner.send('POST', `${API}/pages`, { title: 'Fixed gifts' });
    const pageId = made.json().page.id as string;
    // 50 cents is under the owner's minimum ($1.00): not offered.
    const { layout, blockId } = layoutWith({ title: 'Fixed gifts only', amounts: [50, 2000], allowCustom: false });
    expect((await owner.send('POST', `${API}/pages/${pageId}/publish`, { version: 0, layout })).statusCode).toBe(200);
    const v = new Visitor(t.app);
    const html = (await v.get('/fixed-gifts')).body;
    expect(html).toContain('Fixed gifts only');
    expect(html).toContain(`id="donate-${blockId}-amount-2000"`);
    expect(html).not.toContain('name="customAmount"');
    expect(html).not.toContain('value="50"');
    expect(formFields(html).fields.amountCents).toBe('2000');

    const features = async (f: Record<string, boolean>) =>
      expect((await owner.send('PUT', '/api/flags/features', { features: f })).statusCode).toBe(200);
    await features({ donationBlock: false });
    expect((await v.get('/fixed-gifts')).body).not.toContain('donate-form');
    await features({ donationBlock: true, donations: false });
    expect((await v.get('/fixed-gifts')).body).not.toContain('donate-form');
    await features({ donations: true });
    expect((await v.get('/fixed-gifts')).body).toContain('donate-form');
  });

  it('refuses a layout whose donation block has bad amounts, with the editor’s messages, saving nothing', async () => {
    const made = await owner.send('POST', `${API}/pages`, { title: 'Bad gifts' });
    const pageId = made.json().page.id as string;
    const tooMany = layoutWith({ amounts: [1, 2, 3, 4, 5, 6, 7] }).layout;
    const r1 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: 0, layout: tooMany });
    expect(r1.statusCode).toBe(400);
    expect(JSON.stringify(r1.json())).toContain(em.listTooLong(6));
    const none = layoutWith({ amounts: [] }).layout;
    const r2 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: 0, layout: none });
    expect(r2.statusCode).toBe(400);
    expect(JSON.stringify(r2.json())).toContain(em.listTooShort(1));
    const fraction = layoutWith({ amounts: [12.5] }).layout;
    expect((await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: 0, layout: fraction })).statusCode).toBe(400);
    expect((await owner.get(`${API}/pages/${pageId}`)).json().page.version).toBe(0);
  });
});

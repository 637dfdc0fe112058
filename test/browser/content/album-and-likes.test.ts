/**
 * The album block and the like button in Chromium (issue 30). An owner adds
 * an album from the editor's palette, fills its tracks in the side panel by accessible names and publishes;
 * a visitor plays the playlist (native audio element and the track list). A visitor likes a journal post
 * once: the button is pressed and the count says one, after a reload too, and a second like counts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

describe('album block and like button in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner builds an album in the editor and a visitor plays through its track list', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site);
    await page.getByRole('link', { name: 'Page editor', exact: true }).click();
    const create = page.getByRole('form', { name: 'Create a page' });
    await create.getByLabel('Page title').fill('Listen');
    await create.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { level: 1, name: /Edit page: Listen/ }).waitFor();
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByRole('button', { name: 'Add block to section 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a block' });
    await dialog.getByRole('button', { name: 'Album', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Album block' }).waitFor();
    await panel.getByLabel('Album title').fill('Night Drives');
    await panel.getByLabel('Artist').fill('The Spokes');
    await panel.getByRole('button', { name: 'Add track' }).click();
    await panel.getByRole('button', { name: 'Add track' }).click();
    await panel.getByRole('button', { name: 'Add track' }).click();
    const track = (n: number) => panel.getByRole('group', { name: `Track ${n}` });
    await track(1).getByLabel('Track 1 title').fill('Harbour Lights');
    await track(1).getByLabel('Track 1 audio address').fill('/demo-media/harbour-lights.mp3');
    await track(2).getByLabel('Track 2 title').fill('Slow Climb');
    await track(2).getByLabel('Track 2 audio address').fill('/demo-media/slow-climb.mp3');
    expect(await track(3).getByLabel('Upload audio for track 3').count()).toBe(1);
    await track(3).getByRole('button', { name: 'Remove track 3' }).click();
    expect(await panel.getByRole('group', { name: 'Track 3' }).count()).toBe(0);
    await page
      .locator('.ed-save[role="status"]')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Published\./ })
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();

    const visitorContext = await b.browser.newContext();
    const visitor = await visitorContext.newPage();
    expect((await visitor.goto(`${site.url}/listen`))?.status()).toBe(200);
    const main = visitor.getByRole('main');
    const tracks = main.getByRole('list', { name: 'Night Drives tracks' });
    await visitor.locator('[data-island="AlbumPlayer"][data-hydrated]').waitFor();
    expect(await tracks.getByRole('listitem').count()).toBe(2);
    const player = visitor.locator('audio[aria-label="Night Drives: Harbour Lights"]');
    expect(await player.count()).toBe(1);
    expect(await player.getAttribute('controls')).not.toBeNull();
    expect(await tracks.getByRole('link', { name: 'Harbour Lights' }).getAttribute('aria-current')).toBe('true');
    // Choosing a track plays it in the one player, in place (no navigation to the file).
    await tracks.getByRole('link', { name: 'Slow Climb' }).click();
    await visitor.locator('audio[aria-label="Night Drives: Slow Climb"]').waitFor();
    expect(visitor.url()).toBe(`${site.url}/listen`);
    expect(await visitor.locator('audio').getAttribute('src')).toBe('/demo-media/slow-climb.mp3');
    expect(await tracks.getByRole('link', { name: 'Slow Climb' }).getAttribute('aria-current')).toBe('true');
    expect(await tracks.getByRole('link', { name: 'Harbour Lights' }).getAttribute('aria-current')).toBeNull();
    await visitorContext.close();
  }, 120_000);

  it('a visitor likes a journal post once', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/journal/how-we-choose-our-linen`);
    const like = page.getByRole('button', { name: 'Like How we choose our linen (0 likes)' });
    await page.locator('[data-island="LikeButton"][data-hydrated]').waitFor();
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    const liked = page.getByRole('button', { name: 'Like How we choose our linen (1 like)' });
    await liked.waitFor();
    expect(await liked.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: 'Thanks for the like.' }).count()).toBe(1);
    expect(page.url()).toBe(`${site.url}/journal/how-we-choose-our-linen`);

    await page.reload();
    const again = page.getByRole('button', { name: 'Like How we choose our linen (1 like)' });
    await page.locator('[data-island="LikeButton"][data-hydrated]').waitFor();
    await again.click();
    await page.getByRole('status').filter({ hasText: 'Thanks for the like.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Like How we choose our linen (1 like)' }).getAttribute('aria-pressed')).toBe('true');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

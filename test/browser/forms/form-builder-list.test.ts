/** The form builder's mailing list setting of a newsletter form, in Chromium. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import { NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';

describe('the form builder in Chromium: a newsletter form chooses its mailing list', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;

  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const storedListId = async () =>
    (
      await rows<{ list_id: string | null }>(
        site.database.db,
        sql`SELECT storage->>'listId' AS list_id FROM forms WHERE id = ${NEWSLETTER_FORM_ID}`,
      )
    )[0]!.list_id;

  it('the labelled "Mailing list" select offers the default list and the others, saves the choice, and shows a deleted list as the default', async () => {
    const created = await owner.send('POST', '/api/config/engagement/lists', { name: 'Spring sale' });
    expect(created.statusCode).toBe(201);
    const spring = (created.json() as { list: { id: string } }).list.id;

    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site, '/config/forms');

    const openStorage = async () => {
      await page.getByRole('list', { name: 'Forms' }).getByRole('button', { name: 'Newsletter', exact: true }).click();
      const builder = page.getByRole('region', { name: 'Form builder' });
      await builder.getByRole('tab', { name: 'Storage' }).click();
      return builder;
    };
    let builder = await openStorage();
    const select = builder.getByRole('combobox', { name: 'Mailing list' });
    await expect.poll(() => select.locator('option').allTextContents()).toEqual(['Newsletter (default list)', 'Spring sale']);
    expect(await select.inputValue()).toBe('');
    expect(await builder.getByText('Sign-ups from this form join this list.').isVisible()).toBe(true);

    await select.selectOption({ label: 'Spring sale' });
    await builder.getByRole('button', { name: 'Save form' }).click();
    await builder.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await storedListId()).toBe(spring);

    // Back to the default list.
    await select.selectOption({ label: 'Newsletter (default list)' });
    await builder.getByRole('button', { name: 'Save form' }).click();
    await expect.poll(storedListId).toBeNull();

    // A list deleted after it was chosen shows as the default list, and saving stores the default.
    await site.database.db.execute(
      sql`UPDATE forms SET storage = storage || ${JSON.stringify({ listId: spring })}::jsonb WHERE id = ${NEWSLETTER_FORM_ID}`,
    );
    await site.database.db.execute(sql`DELETE FROM mailing_lists WHERE id = ${spring}`);
    await page.reload();
    builder = await openStorage();
    const again = builder.getByRole('combobox', { name: 'Mailing list' });
    await expect.poll(() => again.locator('option').allTextContents()).toEqual(['Newsletter (default list)']);
    expect(await again.inputValue()).toBe('');
    expect(await builder.getByText('The list this form joined was deleted: sign-ups go to the default list.').isVisible()).toBe(true);
    await builder.getByRole('button', { name: 'Save form' }).click();
    await builder.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await storedListId()).toBeNull();

    // Forms of the other kind have no list to choose.
    await builder.getByRole('tab', { name: 'Advanced' }).click();
    await builder.getByRole('combobox', { name: 'Kind' }).selectOption('form');
    await builder.getByRole('tab', { name: 'Storage' }).click();
    expect(await builder.getByRole('combobox', { name: 'Mailing list' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});

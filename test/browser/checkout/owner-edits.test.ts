import { FREE_ABOVE_NEEDS_AMOUNT } from '../../../src/core/store-rules.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

const API = '/api/checkout/admin';
const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

/** The error shown beside a field: the field is marked invalid and described by it. */
async function errorBeside(field: Locator): Promise<string> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const id = (await field.getAttribute('aria-describedby'))!;
  return (await field.page().locator(`[id="${id}"]`).textContent()) ?? '';
}

describe('editing shipping options, tax rules and coupons in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let owner: Visitor;

  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    for (const [url, body] of [
      [`${API}/shipping-options`, { name: 'Standard shipping', kind: 'flat', priceCents: 599, countries: ['US'] }],
      [`${API}/shipping-options`, { name: 'Express', kind: 'flat', priceCents: 1500 }],
      [`${API}/tax-rules`, { name: 'Oregon', country: 'US', region: 'OR', rateBasisPoints: 0 }],
      [`${API}/coupons`, { code: 'SAVE10', kind: 'percent', percentBasisPoints: 1000 }],
      [`${API}/coupons`, { code: 'WELCOME', kind: 'fixed', amountCents: 500, minSubtotalCents: 2000 }],
    ] as const) {
      const r = await owner.send('POST', url, body);
      expect(r.statusCode, r.body).toBe(200);
    }
    context = await b.browser.newContext();
    page = await context.newPage();
    problems = watchConsole(page);
    await signInAsOwner(page, site, '/config/shipping');
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await b?.close();
    await site?.close();
  });

  /** Goes to /config/`screen`, presses the Edit button of the row `name` in the table `tableName`: that table and the form. */
  async function openEdit(screen: string, heading: string, tableName: string, name: string) {
    await page.goto(`${site.url}/config/${screen}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    const table = page.getByRole('table', { name: tableName });
    await table.getByRole('button', { name: `Edit ${name}` }).click();
    return { table, form: page.getByRole('form', { name: `Edit ${name}` }) };
  }

  /** Console lines other than the browser's note of the 400/409 answers these tests ask for. */
  const unexpected = () => problems.filter((p) => !p.includes('favicon') && !/status of 40[09]/.test(p));

  it('a shipping option: prefilled form, countries ticked from the list, Cancel and Escape return focus, a free-above rate without its threshold refused beside it, Save persists', async () => {
    await page.getByRole('heading', { name: 'Shipping', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Shipping options' });
    const edit = table.getByRole('button', { name: 'Edit Standard shipping' });

    await edit.click();
    const form = page.getByRole('form', { name: 'Edit Standard shipping' });
    await form.waitFor();
    expect(await edit.getAttribute('aria-expanded')).toBe('true');
    const name = form.getByRole('textbox', { name: 'Name' });
    expect(await focused(name)).toBe(true);
    expect(await name.inputValue()).toBe('Standard shipping');
    expect(await form.getByRole('combobox', { name: 'Kind' }).inputValue()).toBe('flat');
    expect(await form.getByRole('textbox', { name: 'Price' }).inputValue()).toBe('5.99');
    // Countries are picked from the list, named in the shop's language: the stored US is ticked.
    const picker = form.getByRole('group', { name: 'Countries' });
    await expect.poll(() => picker.getByRole('checkbox', { name: 'United States' }).isChecked()).toBe(true);
    expect(await picker.getByRole('checkbox').count()).toBeGreaterThan(249);
    expect(await picker.getByText('Chosen: United States').count()).toBe(1);
    await expectNoAxeViolations(page, { include: ['form[aria-label="Edit Standard shipping"]'] });

    // Cancel: nothing is sent, the form goes and focus is back on the row's Edit button.
    await name.fill('Not kept');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect(await focused(edit)).toBe(true);
    expect(await table.getByRole('cell', { name: 'Standard shipping', exact: true }).count()).toBe(1);
    // Escape does the same, and the next opening starts from the stored values again.
    await edit.click();
    await form.waitFor();
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Standard shipping');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await focused(edit)).toBe(true);

    // A bad value: the server's message beside the field, the field focused, nothing stored.
    await edit.click();
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('free_above');
    const threshold = form.getByRole('textbox', { name: 'Free from subtotal' });
    await threshold.fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await errorBeside(threshold)).toBe(FREE_ABOVE_NEEDS_AMOUNT);
    expect(await focused(threshold)).toBe(true);
    expect(await form.getByRole('alert').allTextContents()).toEqual([FREE_ABOVE_NEEDS_AMOUNT]);
    const stored = (await owner.get(`${API}/shipping-options`)).json().shippingOptions;
    expect(stored.find((o: { name: string }) => o.name === 'Standard shipping')).toMatchObject({ priceCents: 599, countries: ['US'] });

    // Fixed and saved: the list refreshes, the form closes, focus returns to the (renamed) row's Edit button.
    await form.getByRole('textbox', { name: 'Name' }).fill('Standard delivery');
    await form.getByRole('textbox', { name: 'Price' }).fill('7.50');
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('flat');
    await form.getByRole('searchbox', { name: 'Find a country' }).fill('cana');
    await form.getByRole('group', { name: 'Countries' }).getByRole('checkbox', { name: 'Canada' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const renamed = table.getByRole('button', { name: 'Edit Standard delivery' });
    await expect.poll(() => focused(renamed)).toBe(true);
    const row = table.getByRole('row', { name: /Standard delivery/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['Standard delivery', 'Flat rate', '$7.50', 'US, CA', 'Edit Delete']);

    await page.reload();
    await page.getByRole('heading', { name: 'Shipping', level: 1 }).waitFor();
    await table.getByRole('row', { name: /Standard delivery/ }).waitFor();
    expect(
      await table
        .getByRole('row', { name: /Standard delivery/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['Standard delivery', 'Flat rate', '$7.50', 'US, CA', 'Edit Delete']);
    expect(await table.getByRole('cell', { name: 'Standard shipping', exact: true }).count()).toBe(0);
    // The other option is untouched, and the add form still adds.
    expect(
      await table
        .getByRole('row', { name: /Express/ })
        .getByRole('cell')
        .nth(2)
        .textContent(),
    ).toBe('$15.00');
    const add = page.getByRole('form', { name: 'Add a shipping option' });
    await add.getByRole('textbox', { name: 'Name' }).fill('Local pickup');
    await add.getByRole('textbox', { name: 'Price' }).fill('0');
    await add.getByRole('searchbox', { name: 'Find a country' }).fill('portu');
    await add.getByRole('group', { name: 'Countries' }).getByRole('checkbox', { name: 'Portugal' }).check();
    expect(await add.getByText('Chosen: Portugal').count()).toBe(1);
    await add.getByRole('button', { name: 'Add shipping option' }).click();
    await table.getByRole('button', { name: 'Edit Local pickup' }).waitFor();
    await expect
      .poll(
        async () =>
          (await owner.get(`${API}/shipping-options`)).json().shippingOptions.find((o: { name: string }) => o.name === 'Local pickup')
            ?.countries,
      )
      .toEqual(['PT']);
    expect(await add.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('');
    expect(unexpected()).toEqual([]);
  });

  it('a tax rule: a rate over 100% shows the server message beside the rate; the fixed rule is stored', async () => {
    const { table, form } = await openEdit('tax', 'Tax', 'Tax rules', 'Oregon');
    const rate = form.getByRole('textbox', { name: 'Rate (%)' });
    expect(await rate.inputValue()).toBe('0');
    await expect.poll(() => form.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('US');
    expect(await form.getByRole('combobox', { name: 'Country' }).locator('option:checked').textContent()).toBe('United States');
    expect(await form.getByRole('textbox', { name: /^Region code/ }).inputValue()).toBe('OR');
    expect(await form.getByRole('checkbox', { name: 'Tax shipping too' }).isChecked()).toBe(false);

    await rate.fill('150');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await errorBeside(rate)).toBe('Rate must be 100% or less.');
    expect((await owner.get(`${API}/tax-rules`)).json().taxRules[0]).toMatchObject({ name: 'Oregon', rateBasisPoints: 0 });

    await form.getByRole('textbox', { name: 'Name' }).fill('Oregon state');
    await rate.fill('8.25');
    await form.getByRole('checkbox', { name: 'Tax shipping too' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(table.getByRole('button', { name: 'Edit Oregon state' }))).toBe(true);

    await page.reload();
    await table.getByRole('row', { name: /Oregon state/ }).waitFor();
    expect(
      await table
        .getByRole('row', { name: /Oregon state/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['Oregon state', 'US', 'OR', '8.25%', 'Yes', 'Edit Delete']);
    // Opening it again shows the stored values.
    await table.getByRole('button', { name: 'Edit Oregon state' }).click();
    expect(await page.getByRole('form', { name: 'Edit Oregon state' }).getByRole('textbox', { name: 'Rate (%)' }).inputValue()).toBe(
      '8.25',
    );
    await page.keyboard.press('Escape');
    expect(unexpected()).toEqual([]);
  });

  it('a coupon: a code another coupon holds shows the clash beside the code; the edited coupon is stored', async () => {
    const { table, form } = await openEdit('coupons', 'Coupons', 'Coupons', 'WELCOME');
    const code = form.getByRole('textbox', { name: 'Code' });
    expect(await focused(code)).toBe(true);
    expect(await code.inputValue()).toBe('WELCOME');
    expect(await form.getByRole('combobox', { name: 'Kind' }).inputValue()).toBe('fixed');
    expect(await form.getByRole('textbox', { name: 'Amount off' }).inputValue()).toBe('5.00');
    expect(await form.getByRole('textbox', { name: 'Minimum subtotal' }).inputValue()).toBe('20.00');

    await code.fill('save10');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await errorBeside(code)).toBe('A coupon with that code already exists.');
    expect(await focused(code)).toBe(true);

    await code.fill('WELCOME5');
    await form.getByRole('textbox', { name: 'Amount off' }).fill('5.50');
    await form.getByRole('textbox', { name: /^Usage limit/ }).fill('100');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(table.getByRole('button', { name: 'Edit WELCOME5' }))).toBe(true);

    await page.reload();
    await table.getByRole('row', { name: /WELCOME5/ }).waitFor();
    const cells = await table
      .getByRole('row', { name: /WELCOME5/ })
      .getByRole('cell')
      .allTextContents();
    expect(cells).toEqual(['WELCOME5', '$5.50 off', '$20.00', 'Never', '0 of 100', 'Edit Delete']);
    expect(await table.getByRole('cell', { name: 'WELCOME', exact: true }).count()).toBe(0);
    expect(
      await table
        .getByRole('row', { name: /SAVE10/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).toBe('10% off');

    // The add form shows the server's words beside its fields too.
    const add = page.getByRole('form', { name: 'Add a coupon' });
    await add.getByRole('textbox', { name: 'Code' }).fill('HALF');
    await add.getByRole('textbox', { name: 'Percent off' }).fill('150');
    await add.getByRole('button', { name: 'Add coupon' }).click();
    expect(await errorBeside(add.getByRole('textbox', { name: 'Percent off' }))).toBe('A percentage is 100% or less.');
    await add.getByRole('textbox', { name: 'Percent off' }).fill('50');
    await add.getByRole('button', { name: 'Add coupon' }).click();
    await table.getByRole('button', { name: 'Edit HALF' }).waitFor();
    expect(unexpected()).toEqual([]);
  });

  it("amounts are read and shown in the store's currency: 500 in a yen store is ¥500, not ¥50,000", async () => {
    await site.database.db.execute(sql`update websites set currency = 'JPY'`);
    try {
      await page.goto(`${site.url}/config/coupons`);
      const table = page.getByRole('table', { name: 'Coupons' });
      await expect
        .poll(() =>
          table
            .getByRole('row', { name: /WELCOME5/ })
            .getByRole('cell')
            .nth(1)
            .textContent(),
        )
        .toBe('¥550 off');
      const add = page.getByRole('form', { name: 'Add a coupon' });
      await add.getByRole('textbox', { name: 'Code' }).fill('YEN500');
      await add.getByRole('combobox', { name: 'Kind' }).selectOption('fixed');
      await add.getByRole('textbox', { name: 'Amount off' }).fill('500');
      await add.getByRole('button', { name: 'Add coupon' }).click();
      await table.getByRole('button', { name: 'Edit YEN500' }).waitFor();
      expect(
        await table
          .getByRole('row', { name: /YEN500/ })
          .getByRole('cell')
          .nth(1)
          .textContent(),
      ).toBe('¥500 off');
      const stored = (await owner.get(`${API}/coupons`)).json() as { coupons: Array<{ code: string; amountCents: number }> };
      expect(stored.coupons.find((c) => c.code === 'YEN500')?.amountCents).toBe(500);

      await page.goto(`${site.url}/config/shipping`);
      const options = page.getByRole('table', { name: 'Shipping options' });
      await options.getByRole('button', { name: 'Edit Express' }).click();
      const form = page.getByRole('form', { name: 'Edit Express' });
      expect(await form.getByRole('textbox', { name: 'Price' }).inputValue()).toBe('1500');
    } finally {
      await site.database.db.execute(sql`update websites set currency = 'USD'`);
    }
  });
});

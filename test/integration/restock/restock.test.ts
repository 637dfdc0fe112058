import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { solveChallenge } from 'altcha-lib/v1';
import { DB_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import { forms, restock } from '../../../src/core/messages.js';
import { totalSignUps } from '../../../src/core/restock.js';
import { configureCaptcha } from '../../../src/server/captcha/index.js';
import { restockServiceOf } from '../../../src/server/restock/index.js';
import { RESTOCK_TEXT } from '../../../src/server/restock/service.js';
import { restockSignUpHtml, restockSignUpProps } from '../../../src/server/restock/widget.js';
import { restockTarget } from '../../../src/web/islands/RestockSignUp.js';

const API = '/api/site-users/account/notifications/restock';
const CRUMB = 'restock-test-crumb-0123456789';

let ipSeq = 1;
/** A fresh client address, so one test's sign-ups do not count against another's rate limit. */
const freshIp = () => `10.9.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;

async function captchaToken(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/captcha/challenge?action=product-waitlist', remoteAddress: freshIp() });
  expect(res.statusCode).toBe(200);
  const c = res.json() as { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  return Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
}

/** POST the sign-up as a visitor from `ip` (with the crumb). */
function postSignUp(app: FastifyInstance, body: unknown, ip = freshIp()) {
  return app.inject({
    method: 'POST',
    url: API,
    remoteAddress: ip,
    headers: { cookie: `crumb=${CRUMB}`, 'x-csrf-token': CRUMB, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

async function signIn(app: FastifyInstance, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email, password });
  expect(res.statusCode).toBe(200);
  return v;
}

/** Runs the job queue and the mail worker until nothing is due, waiting for background runs to finish. */
async function drain(t: TestApp) {
  await vi.waitFor(
    async () => {
      await t.app.services.jobs.runDue();
      await t.app.services.mailer.deliverDue();
      const r = await rows<{ j: number; m: number }>(
        t.database.db,
        sql`SELECT (SELECT count(*) FROM jobs WHERE (status = 'pending' AND run_at <= now()) OR status = 'running')::int AS j,
                   (SELECT count(*) FROM mail_outbox WHERE status IN ('pending', 'sending'))::int AS m`,
      );
      expect(r[0], 'the queues did not drain').toEqual({ j: 0, m: 0 });
    },
    { timeout: 20_000, interval: 20 },
  );
}

describe.each(DB_KINDS)('restock on %s', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: Visitor;
  let ids: {
    throw: string;
    clay: string;
    oat: string;
    shirt: string;
    lNavy: string;
    sSand: string;
    ebook: string;
    ebookV: string;
    board: string;
    boardV: string;
  };

  const settings = (patch: Record<string, unknown>) => owner.send('PUT', `${API}/settings`, { settings: patch });
  const setStock = (variantId: string, body: Record<string, unknown>, who = owner) =>
    who.send('PUT', `/api/commerce/inventory/variants/${variantId}`, body);
  const pending = async (variantId: string) =>
    (
      await rows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM restock_sign_ups WHERE variant_id = ${variantId} AND status = 'pending'`,
      )
    )[0]!.n;
  /** Sign-ups made through the service (the visitor call's captcha and rate limit are tested on their own). */
  const seedSignUps = async (productId: string, variantId: string, emails: string[]) => {
    const svc = restockServiceOf(t.app);
    for (const email of emails) await svc.signUp({ productId, variantId, email, isJoinMailingList: false });
  };
  const resetStock = async () => {
    await t.database.exec(
      `UPDATE product_variants SET qty_in_stock = 0, unlimited = false WHERE id IN ('${ids.clay}', '${ids.oat}', '${ids.lNavy}')`,
    );
    await t.database.exec(
      `DELETE FROM restock_sign_ups; DELETE FROM restock_sends; DELETE FROM restock_suppressions; DELETE FROM mail_outbox; DELETE FROM jobs`,
    );
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await testApp(kind, { SMTP_URL: sink.url });
    configureCaptcha(t.app, { altchaMaxNumber: 2000 });
    const s = t.seed;
    ids = {
      throw: s.productIds['merino-wool-throw']!,
      clay: s.variantIds['THROW-CLAY']!,
      oat: s.variantIds['THROW-OAT']!,
      shirt: s.productIds['linen-camp-shirt']!,
      lNavy: s.variantIds['SHIRT-L-NAVY']!,
      sSand: s.variantIds['SHIRT-S-SAND']!,
      ebook: s.productIds['houseplant-field-guide']!,
      ebookV: s.variantIds['EBOOK-PLANTS']!,
      board: s.productIds['engraved-cutting-board']!,
      boardV: s.variantIds['BOARD-WALNUT']!,
    };
    owner = await signIn(t.app, OWNER.email, OWNER.password);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });
  beforeEach(async () => {
    await drain(t);
    await resetStock();
    sink.messages.length = 0;
    const r = await settings({
      autoSend: true,
      limitToStock: false,
      batchSize: 50,
      batchDelaySeconds: 0,
      multilingualEmails: false,
      mailingListSignUpEnabled: false,
    });
    expect(r.statusCode).toBe(200);
  });

  describe('visitor sign-up', () => {
    it('answers each email validation message and changes nothing', async () => {
      const base = { isJoinMailingList: false, productId: ids.throw, variantId: ids.clay, captchaToken: 'unused' };
      const cases: Array<[unknown, string]> = [
        [undefined, restock.EMAIL_BLANK],
        ['', restock.EMAIL_BLANK],
        ['    ', restock.EMAIL_BLANK],
        ['a@', restock.EMAIL_INVALID],
        ['not-an-email', restock.EMAIL_INVALID],
        ['someone@example', restock.EMAIL_INVALID],
        ['someone@example.museum', restock.EMAIL_INVALID],
        ['two words@example.com', restock.EMAIL_INVALID],
        [`${'a'.repeat(250)}@example.com`, restock.EMAIL_INVALID],
      ];
      for (const [email, message] of cases) {
        const res = await postSignUp(t.app, email === undefined ? base : { ...base, siteVisitorEmail: email });
        expect(res.statusCode, String(email)).toBe(400);
        expect(res.json()).toMatchObject({ message, errors: { siteVisitorEmail: message } });
      }
      expect(await pending(ids.clay)).toBe(0);
    });

    it('signs up with a solved captcha, answers the success text, and keeps one sign-up for a second try', async () => {
      const body = {
        isJoinMailingList: true,
        productId: ids.throw,
        variantId: ids.clay,
        siteVisitorEmail: ' Ada@Example.com ',
        captchaToken: await captchaToken(t.app),
      };
      const first = await postSignUp(t.app, body);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ success: true, created: true, message: 'Signed up!' });
      const again = await postSignUp(t.app, { ...body, siteVisitorEmail: 'ada@example.COM', captchaToken: await captchaToken(t.app) });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ success: true, created: false });
      const r = await rows<{ email: string; is_join_mailing_list: boolean; language: string | null }>(
        t.database.db,
        sql`SELECT email, is_join_mailing_list, language FROM restock_sign_ups WHERE variant_id = ${ids.clay}`,
      );
      // The mailing-list opt-in is off in this store, so it is not kept.
      expect(r).toEqual([{ email: 'Ada@Example.com', is_join_mailing_list: false, language: null }]);
    });

    it('keeps the mailing-list opt-in, and the language only with multilingual emails on and a translation tool present', async () => {
      await settings({ mailingListSignUpEnabled: true, multilingualEmails: true });
      // Multilingual emails on, but the site has no translation tool: the language is not kept.
      const noTool = await postSignUp(t.app, {
        isJoinMailingList: true,
        productId: ids.throw,
        variantId: ids.oat,
        siteVisitorEmail: 'noe@example.fr',
        captchaToken: await captchaToken(t.app),
        language: 'fr-FR',
      });
      expect(noTool.statusCode).toBe(200);
      const kept = await rows<{ language: string | null }>(
        t.database.db,
        sql`SELECT language FROM restock_sign_ups WHERE email = 'noe@example.fr'`,
      );
      expect(kept).toEqual([{ language: null }]);
      await t.database.db.execute(
        sql`UPDATE websites SET settings = jsonb_set(settings, '{multilingual}', '{"languages": [{"code": "en-US", "customCoded": false}, {"code": "fr-FR", "customCoded": false}], "connected": true}'::jsonb)`,
      );
      const res = await postSignUp(t.app, {
        isJoinMailingList: true,
        productId: ids.throw,
        variantId: ids.oat,
        siteVisitorEmail: 'lea@example.fr',
        captchaToken: await captchaToken(t.app),
        language: 'fr-FR',
      });
      expect(res.statusCode).toBe(200);
      await t.database.db.execute(sql`DELETE FROM restock_sign_ups WHERE email = 'noe@example.fr'`);
      const bad = await postSignUp(t.app, {
        isJoinMailingList: false,
        productId: ids.throw,
        variantId: ids.oat,
        siteVisitorEmail: 'x@example.fr',
        captchaToken: 'x',
        language: '<script>',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(RESTOCK_TEXT.BAD_LANGUAGE);
      const r = await rows<{ is_join_mailing_list: boolean; language: string }>(
        t.database.db,
        sql`SELECT is_join_mailing_list, language FROM restock_sign_ups WHERE variant_id = ${ids.oat}`,
      );
      expect(r).toEqual([{ is_join_mailing_list: true, language: 'fr-FR' }]);
    });

    it('refuses a missing, forged or replayed captcha', async () => {
      const base = { isJoinMailingList: false, productId: ids.throw, variantId: ids.clay, siteVisitorEmail: 'bob@example.com' };
      const missing = await postSignUp(t.app, base);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(forms.CAPTCHA_INCOMPLETE);
      const forged = await postSignUp(t.app, { ...base, captchaToken: Buffer.from('{"salt":"x","challenge":"y"}').toString('base64') });
      expect(forged.statusCode).toBe(400);
      expect(forged.json().message).toBe(forms.RECAPTCHA_FAILED);
      const token = await captchaToken(t.app);
      expect((await postSignUp(t.app, { ...base, captchaToken: token })).statusCode).toBe(200);
      const replay = await postSignUp(t.app, { ...base, siteVisitorEmail: 'eve@example.com', captchaToken: token });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().message).toBe(forms.RECAPTCHA_FAILED);
      expect(await pending(ids.clay)).toBe(1);
    });

    it('refuses unknown variants, variants of another product, in-stock variants and digital products', async () => {
      const sign = async (productId: string, variantId: string) =>
        postSignUp(t.app, {
          isJoinMailingList: false,
          productId,
          variantId,
          siteVisitorEmail: 'carl@example.com',
          captchaToken: await captchaToken(t.app),
        });
      const unknown = await sign(ids.throw, 'ffffffffffffffffffffffff');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(RESTOCK_TEXT.NOT_FOUND);
      expect((await sign(ids.shirt, ids.clay)).statusCode).toBe(404);
      const inStock = await sign(ids.shirt, ids.sSand);
      expect(inStock.statusCode).toBe(400);
      expect(inStock.json().message).toBe(RESTOCK_TEXT.IN_STOCK);
      const digital = await sign(ids.ebook, ids.ebookV);
      expect(digital.statusCode).toBe(400);
      expect(digital.json().message).toBe(RESTOCK_TEXT.NOT_TRACKED);
      const noCrumb = await t.app.inject({
        method: 'POST',
        url: API,
        payload: { productId: ids.throw, variantId: ids.clay, siteVisitorEmail: 'a@b.co' },
      });
      expect(noCrumb.statusCode).toBe(403);
      expect(noCrumb.json()).toEqual({ crumbFail: true });
      expect(await rows(t.database.db, sql`SELECT id FROM restock_sign_ups`)).toEqual([]);
    });

    it('with the enterprise captcha, takes recaptchaEnterpriseV3Token and answers the fallback message on failure', async () => {
      const calls: string[] = [];
      configureCaptcha(t.app, {
        http: async (_url, init) => {
          const token = (JSON.parse(init.body) as { event: { token: string } }).event.token;
          calls.push(token);
          const valid = token === 'good-token';
          return {
            status: 200,
            json: async () => ({ tokenProperties: { valid, action: 'product_waitlist' }, riskAnalysis: { score: 0.9 } }),
          };
        },
      });
      await t.database.db.execute(
        sql`UPDATE websites SET settings = jsonb_set(settings, '{captcha}', ${JSON.stringify({ kind: 'recaptcha-enterprise', siteKey: 'site', projectId: 'proj', apiKey: 'key' })}::jsonb)`,
      );
      try {
        const base = { isJoinMailingList: false, productId: ids.throw, variantId: ids.clay, siteVisitorEmail: 'ent@example.com' };
        const form = await t.app.inject({ method: 'GET', url: `${API}/form` });
        expect(form.json().captcha).toMatchObject({ kind: 'recaptcha-enterprise', action: 'product-waitlist', siteKey: 'site' });
        const bad = await postSignUp(t.app, { ...base, recaptchaEnterpriseV3Token: 'bad-token' });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toBe(restock.ENTERPRISE_FALLBACK);
        const missing = await postSignUp(t.app, base);
        expect(missing.json().message).toBe(restock.ENTERPRISE_FALLBACK);
        const ok = await postSignUp(t.app, { ...base, recaptchaEnterpriseV3Token: 'good-token' });
        expect(ok.statusCode).toBe(200);
        expect(calls).toEqual(['bad-token', 'good-token']);
      } finally {
        await t.database.db.execute(sql`UPDATE websites SET settings = settings - 'captcha'`);
      }
    });

    it('rate-limits sign-ups per address with the form submission message', async () => {
      const ip = freshIp();
      const body = { isJoinMailingList: false, productId: ids.throw, variantId: ids.clay, siteVisitorEmail: '' };
      for (let i = 0; i < 20; i++) expect((await postSignUp(t.app, body, ip)).statusCode).toBe(400);
      const limited = await postSignUp(t.app, body, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(forms.STATUS_429);
      expect((await postSignUp(t.app, body, freshIp())).statusCode).toBe(400);
    });
  });

  describe('owner calls', () => {
    it('allow only admin and store manager roles (others 403, no session 401)', async () => {
      const owners = new OwnerService(t.database);
      const roles = [Role.STORE_MANAGER, Role.EDITOR, Role.BILLING, Role.VIEWER, Role.WEBSITE_MANAGER];
      const who = new Map<number, Visitor>();
      for (const role of roles) {
        const email = `role${role}-${kind}@example.com`;
        await owners.create({ websiteId: t.seed.websiteId, email, password: 'a long enough password', role });
        who.set(role, await signIn(t.app, email, 'a long enough password'));
      }
      await seedSignUps(ids.throw, ids.clay, ['wait@example.com']);
      const calls: Array<[string, 'GET' | 'POST' | 'PUT', string, unknown?]> = [
        ['groups', 'GET', `${API}/groups`],
        ['list', 'GET', `${API}?productId=${ids.throw}&variantId=${ids.clay}`],
        ['send', 'POST', `${API}/send`, { productId: ids.throw, variantId: ids.clay }],
        ['send all', 'POST', `${API}/send/all`, { sendRequests: [{ productId: ids.throw, variantId: ids.clay }] }],
        ['history', 'GET', `${API}/sends`],
        ['settings', 'GET', `${API}/settings`],
        ['save settings', 'PUT', `${API}/settings`, { settings: { batchSize: 50 } }],
        ['stock', 'PUT', `/api/commerce/inventory/variants/${ids.oat}`, { qtyInStock: 0 }],
      ];
      const anonymous = new Visitor(t.app);
      for (const [name, method, url, body] of calls) {
        const call = (v: Visitor) => (method === 'GET' ? v.get(url) : v.send(method, url, body));
        expect((await call(anonymous)).statusCode, `${name} anonymous`).toBe(401);
        for (const role of [Role.EDITOR, Role.BILLING, Role.VIEWER, Role.WEBSITE_MANAGER]) {
          const res = await call(who.get(role)!);
          expect(res.statusCode, `${name} role ${role}`).toBe(403);
        }
        // Out of stock, so the sends answer 400 / nothing-pending; the role check passed.
        const sm = await call(who.get(Role.STORE_MANAGER)!);
        expect([200, 400], `${name} store manager`).toContain(sm.statusCode);
        const admin = await call(owner);
        expect([200, 400], `${name} admin`).toContain(admin.statusCode);
      }
      expect(await pending(ids.clay)).toBe(1);
    });

    it('lists groups by product and variant with totals, and each variant list', async () => {
      await seedSignUps(ids.throw, ids.clay, ['a@example.com', 'b@example.com', 'c@example.com']);
      await seedSignUps(ids.throw, ids.oat, ['d@example.com']);
      await seedSignUps(ids.shirt, ids.lNavy, ['e@example.com', 'f@example.com']);
      const g = await owner.get(`${API}/groups`);
      expect(g.statusCode).toBe(200);
      const body = g.json() as {
        signUpGroups: Array<{
          productId: string;
          productTitle: string;
          productUrl: string;
          pendingCount: number;
          variants: Array<{ variantId: string; pendingCount: number; variantText: string; inStock: boolean }>;
        }>;
        hasNextPage: boolean;
        nextPageCursor: string | null;
      };
      expect(body.hasNextPage).toBe(false);
      expect(body.nextPageCursor).toBeNull();
      expect(body.signUpGroups.map((x) => x.productTitle)).toEqual(['Merino Wool Throw', 'Linen Camp Shirt']);
      const throwGroup = body.signUpGroups[0]!;
      expect(throwGroup.productUrl).toBe('/shop/p/merino-wool-throw');
      expect(throwGroup.variants.map((v) => [v.variantText, v.pendingCount, v.inStock])).toEqual([
        ['Color: Clay', 3, false],
        ['Color: Oat', 1, false],
      ]);
      // The total across variants is the sum of the list lengths, as the /config screen computes it.
      const lists = [];
      for (const v of throwGroup.variants) {
        const l = await owner.get(`${API}?productId=${ids.throw}&variantId=${v.variantId}`);
        expect(l.statusCode).toBe(200);
        lists.push((l.json() as { signUps: unknown[] }).signUps);
      }
      expect(totalSignUps(lists)).toBe(4);
      expect(throwGroup.pendingCount).toBe(4);
      expect(totalSignUps([])).toBe(0);
      const list = (await owner.get(`${API}?productId=${ids.shirt}&variantId=${ids.lNavy}`)).json() as {
        signUps: Array<{ email: string; status: string }>;
        hasNextPage: boolean;
      };
      expect(list.signUps.map((s) => [s.email, s.status])).toEqual([
        ['e@example.com', 'pending'],
        ['f@example.com', 'pending'],
      ]);
      expect(list.hasNextPage).toBe(false);
      const missing = await owner.get(`${API}?productId=${ids.shirt}`);
      expect(missing.statusCode).toBe(400);
      const badCursor = await owner.get(`${API}/groups?cursor=${encodeURIComponent('!!nope')}`);
      expect(badCursor.statusCode).toBe(400);
    });

    it('pages sign-ups across 3+ pages while new sign-ups arrive, without duplicates or gaps', async () => {
      const first = Array.from({ length: 9 }, (_, i) => `first${i}@example.com`);
      await seedSignUps(ids.throw, ids.clay, first);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      let arriving = 0;
      do {
        const url = `${API}?productId=${ids.throw}&variantId=${ids.clay}&pageSize=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await owner.get(url);
        expect(res.statusCode).toBe(200);
        const page = res.json() as { signUps: Array<{ email: string }>; hasNextPage: boolean; nextPageCursor: string | null };
        seen.push(...page.signUps.map((s) => s.email));
        pages++;
        // New sign-ups arrive between page reads (for the first three pages).
        if (pages <= 3) {
          await seedSignUps(ids.throw, ids.clay, [`late${arriving++}@example.com`, `late${arriving++}@example.com`]);
        }
        cursor = page.hasNextPage ? page.nextPageCursor : null;
        if (page.hasNextPage) expect(cursor).toBeTruthy();
      } while (cursor && pages < 20);
      expect(pages).toBeGreaterThanOrEqual(3);
      const all = [...first, ...Array.from({ length: arriving }, (_, i) => `late${i}@example.com`)];
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(all);

      // Groups page the same way while a new product group arrives.
      await seedSignUps(ids.throw, ids.oat, ['g1@example.com']);
      const g1 = (await owner.get(`${API}/groups?pageSize=1`)).json() as {
        signUpGroups: Array<{ productId: string }>;
        hasNextPage: boolean;
        nextPageCursor: string;
      };
      expect(g1.signUpGroups.map((g) => g.productId)).toEqual([ids.throw]);
      expect(g1.hasNextPage).toBe(false);
      await seedSignUps(ids.shirt, ids.lNavy, ['g2@example.com']);
      const again = (await owner.get(`${API}/groups?pageSize=1`)).json() as {
        signUpGroups: Array<{ productId: string }>;
        hasNextPage: boolean;
        nextPageCursor: string;
      };
      expect(again.hasNextPage).toBe(true);
      const g2 = (await owner.get(`${API}/groups?pageSize=1&cursor=${encodeURIComponent(again.nextPageCursor)}`)).json() as {
        signUpGroups: Array<{ productId: string }>;
        hasNextPage: boolean;
      };
      expect(g2.signUpGroups.map((g) => g.productId)).toEqual([ids.shirt]);
      expect(g2.hasNextPage).toBe(false);
    });
  });

  describe('sending', () => {
    it('emails the waiting list automatically when the owner restocks, one email each, with product and unsubscribe links', async () => {
      await seedSignUps(ids.shirt, ids.lNavy, ['one@example.com', 'two@example.com']);
      const res = await setStock(ids.lNavy, { qtyInStock: 3 });
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        variant: { qtyInStock: number; unlimited: boolean };
        restockSend: { trigger: string; pendingAtStart: number };
      };
      expect(body.variant).toMatchObject({ qtyInStock: 3, unlimited: false });
      expect(body.restockSend).toMatchObject({ trigger: 'auto', pendingAtStart: 2 });
      await drain(t);
      expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['one@example.com', 'two@example.com']);
      const raw = sink.to('one@example.com')[0]!.raw.replace(/=\r?\n/g, '');
      expect(raw).toMatch(/Subject: Linen Camp Shirt is back in stock/);
      expect(raw).toContain('/shop/p/linen-camp-shirt');
      expect(raw).toMatch(/\/restock\/unsubscribe\/[0-9a-f]{24}\.[A-Za-z0-9_-]{43}/);
      expect(await pending(ids.lNavy)).toBe(0);
      // Nothing is sent twice: a second restock and a manual send find no one waiting.
      expect((await setStock(ids.lNavy, { qtyInStock: 0 })).json().restockSend).toBeNull();
      expect((await setStock(ids.lNavy, { qtyInStock: 4 })).json().restockSend).toBeNull();
      const manual = await owner.send('POST', `${API}/send`, { productId: ids.shirt, variantId: ids.lNavy });
      expect(manual.statusCode).toBe(400);
      expect(manual.json().message).toBe(RESTOCK_TEXT.NOTHING_PENDING);
      await drain(t);
      expect(sink.messages).toHaveLength(2);
      const history = (await owner.get(`${API}/sends`)).json() as {
        sends: Array<{ status: string; sentCount: number; trigger: string; variantText: string }>;
      };
      expect(history.sends[0]).toMatchObject({ status: 'done', sentCount: 2, trigger: 'auto', variantText: 'Size: L, Color: Navy' });
    });

    it('writes the email in the sign-up language when multilingual emails are on', async () => {
      await settings({ multilingualEmails: true });
      await restockServiceOf(t.app).signUp({
        productId: ids.throw,
        variantId: ids.clay,
        email: 'marie@example.fr',
        isJoinMailingList: false,
        language: 'fr',
      });
      await setStock(ids.clay, { qtyInStock: 1 });
      await drain(t);
      const raw = sink.to('marie@example.fr')[0]!.raw;
      expect(raw).toMatch(
        /Subject: =\?UTF-8\?Q\?Merino_Wool_Throw_est_de_nouveau_en_stock\?=|Subject: Merino Wool Throw est de nouveau en stock/,
      );
    });

    it('leaves sending to the owner when automatic sending is off; refuses sending out of stock', async () => {
      await settings({ autoSend: false });
      await seedSignUps(ids.throw, ids.oat, ['m1@example.com', 'm2@example.com']);
      const out = await owner.send('POST', `${API}/send`, { productId: ids.throw, variantId: ids.oat });
      expect(out.statusCode).toBe(400);
      expect(out.json().message).toBe(RESTOCK_TEXT.OUT_OF_STOCK);
      expect((await setStock(ids.oat, { unlimited: true })).json().restockSend).toBeNull();
      await drain(t);
      expect(sink.messages).toHaveLength(0);
      const sent = await owner.send('POST', `${API}/send`, { productId: ids.throw, variantId: ids.oat });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toMatchObject({ joined: false, send: { trigger: 'manual', pendingAtStart: 2 } });
      await drain(t);
      expect(sink.messages).toHaveLength(2);
      const unknown = await owner.send('POST', `${API}/send`, { productId: ids.throw, variantId: ids.lNavy });
      expect(unknown.statusCode).toBe(404);
      const empty = await owner.send('POST', `${API}/send/all`, { sendRequests: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(RESTOCK_TEXT.NO_REQUESTS);
    });

    it('sends at most as many emails as units when the owner limits sends to stock', async () => {
      await settings({ limitToStock: true });
      await seedSignUps(ids.throw, ids.clay, ['u1@example.com', 'u2@example.com', 'u3@example.com', 'u4@example.com', 'u5@example.com']);
      const res = await setStock(ids.clay, { qtyInStock: 2 });
      expect(res.json().restockSend).toMatchObject({ maxEmails: 2 });
      await drain(t);
      expect(sink.messages.map((m) => m.to[0])).toEqual(expect.arrayContaining(['u1@example.com', 'u2@example.com']));
      expect(sink.messages).toHaveLength(2);
      expect(await pending(ids.clay)).toBe(3);
      const history = (await owner.get(`${API}/sends`)).json() as { sends: Array<{ status: string; reason: string; sentCount: number }> };
      expect(history.sends[0]).toMatchObject({ status: 'done', reason: 'limit', sentCount: 2 });
    });

    it('paces batches through the job queue and stops when the variant sells out again', async () => {
      await settings({ batchSize: 2, batchDelaySeconds: 120 });
      await seedSignUps(ids.throw, ids.clay, ['p1@example.com', 'p2@example.com', 'p3@example.com', 'p4@example.com', 'p5@example.com']);
      await setStock(ids.clay, { qtyInStock: 10 });
      await drain(t);
      expect(sink.messages).toHaveLength(2);
      const waiting = await rows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'restock.send' AND status = 'pending' AND run_at > now() + interval '60 seconds'`,
      );
      expect(waiting[0]!.n).toBe(1);
      await t.database.exec(`UPDATE jobs SET run_at = now() WHERE kind = 'restock.send' AND status = 'pending'`);
      await drain(t);
      expect(sink.messages).toHaveLength(4);
      // Sold out again before the next batch: the send stops and the rest keep waiting.
      await setStock(ids.clay, { qtyInStock: 0 });
      await t.database.exec(`UPDATE jobs SET run_at = now() WHERE kind = 'restock.send' AND status = 'pending'`);
      await drain(t);
      expect(sink.messages).toHaveLength(4);
      expect(await pending(ids.clay)).toBe(1);
      const history = (await owner.get(`${API}/sends`)).json() as { sends: Array<{ status: string; reason: string; sentCount: number }> };
      expect(history.sends[0]).toMatchObject({ status: 'stopped', reason: 'out-of-stock', sentCount: 4 });
    });

    it('starts the automatic send when a product save in /config brings a variant back', async () => {
      await seedSignUps(ids.throw, ids.clay, ['save1@example.com', 'save2@example.com']);
      const product = (await owner.get(`/api/config/products/${ids.throw}`)).json() as {
        variants: Array<{ id: string; qtyInStock: number }>;
      } & Record<string, unknown>;
      const body = {
        ...product,
        variantOptionOrdering: ['Color'],
        variants: product.variants.map((v) => (v.id === ids.clay ? { ...v, qtyInStock: 4 } : v)),
      };
      const saved = await owner.send('PUT', `/api/config/products/${ids.throw}`, body);
      expect(saved.statusCode, saved.body).toBe(200);
      await drain(t);
      expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['save1@example.com', 'save2@example.com']);
      const history = (await owner.get(`${API}/sends`)).json() as { sends: Array<{ trigger: string; sentCount: number }> };
      expect(history.sends[0]).toMatchObject({ trigger: 'auto', sentCount: 2 });
    });

    it('checks the stock call input', async () => {
      expect((await setStock(ids.clay, { qtyInStock: -1 })).statusCode).toBe(400);
      expect((await setStock(ids.clay, { qtyInStock: 1.5 })).statusCode).toBe(400);
      expect((await setStock(ids.clay, {})).json().message).toMatch(/qtyInStock or unlimited/);
      expect((await setStock('ffffffffffffffffffffffff', { qtyInStock: 1 })).statusCode).toBe(404);
      expect((await settings({ batchSize: 0 })).statusCode).toBe(400);
      expect((await owner.send('PUT', `${API}/settings`, { settings: { nope: true } })).statusCode).toBe(400);
      const r = await rows<{ qty_in_stock: number }>(t.database.db, sql`SELECT qty_in_stock FROM product_variants WHERE id = ${ids.clay}`);
      expect(r[0]!.qty_in_stock).toBe(0);
    });

    it('two send-all calls at once over 500 sign-ups send exactly 500 emails', async () => {
      await settings({ autoSend: false, batchSize: 100, batchDelaySeconds: 0 });
      const svc = restockServiceOf(t.app);
      const emails: string[] = [];
      for (let i = 0; i < 500; i++) emails.push(`burst${i}@example.com`);
      const split = [emails.slice(0, 300), emails.slice(300)];
      await Promise.all([
        (async () => {
          for (const e of split[0]!) await svc.signUp({ productId: ids.throw, variantId: ids.clay, email: e, isJoinMailingList: false });
        })(),
        (async () => {
          for (const e of split[1]!) await svc.signUp({ productId: ids.throw, variantId: ids.oat, email: e, isJoinMailingList: false });
        })(),
      ]);
      await setStock(ids.clay, { qtyInStock: 50 });
      await setStock(ids.oat, { unlimited: true });
      const sendRequests = [
        { productId: ids.throw, variantId: ids.clay },
        { productId: ids.throw, variantId: ids.oat },
      ];
      const [a, b] = await Promise.all([
        owner.send('POST', `${API}/send/all`, { sendRequests }),
        owner.send('POST', `${API}/send/all`, { sendRequests }),
      ]);
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      const results = [...a.json().results, ...b.json().results] as Array<{ result: string }>;
      expect(results.map((r) => r.result).sort()).toEqual(expect.arrayContaining(['started', 'started']));
      await drain(t);
      expect(sink.messages).toHaveLength(500);
      expect(new Set(sink.messages.map((m) => m.to[0])).size).toBe(500);
      const r = await rows<{ sent: number; mails: number }>(
        t.database.db,
        sql`SELECT (SELECT count(*) FROM restock_sign_ups WHERE status = 'sent')::int AS sent, (SELECT count(*) FROM mail_outbox WHERE kind = 'restock')::int AS mails`,
      );
      expect(r[0]).toEqual({ sent: 500, mails: 500 });
    });

    it('claims each sign-up once when two batches of the same variant run at the same time', async () => {
      await settings({ autoSend: false, batchSize: 1000 });
      await seedSignUps(
        ids.throw,
        ids.clay,
        Array.from({ length: 60 }, (_, i) => `race${i}@example.com`),
      );
      await setStock(ids.clay, { qtyInStock: 5 });
      // Two sends of one variant, forced past the one-active-send rule, run at once: the claims alone keep it exactly-once.
      await t.database.exec(`DROP INDEX restock_sends_active_uq`);
      try {
        await t.database.exec(
          `INSERT INTO restock_sends (id, website_id, product_id, variant_id, trigger, status, pending_at_start) VALUES
           ('aaaaaaaaaaaaaaaaaaaaaaa1', '${t.seed.websiteId}', '${ids.throw}', '${ids.clay}', 'manual', 'running', 60),
           ('aaaaaaaaaaaaaaaaaaaaaaa2', '${t.seed.websiteId}', '${ids.throw}', '${ids.clay}', 'manual', 'running', 60)`,
        );
        const svc = restockServiceOf(t.app);
        await Promise.all([
          svc.runBatch('aaaaaaaaaaaaaaaaaaaaaaa1'),
          svc.runBatch('aaaaaaaaaaaaaaaaaaaaaaa2'),
          svc.runBatch('aaaaaaaaaaaaaaaaaaaaaaa1'),
        ]);
        const sends = await rows<{ sent_count: number }>(t.database.db, sql`SELECT sent_count FROM restock_sends ORDER BY id`);
        expect(sends.reduce((n, x) => n + Number(x.sent_count), 0)).toBe(60);
      } finally {
        await t.database.exec(`DELETE FROM restock_sends`);
        await t.database.exec(
          `CREATE UNIQUE INDEX restock_sends_active_uq ON restock_sends USING btree (variant_id) WHERE status IN ('queued', 'running')`,
        );
      }
      await drain(t);
      expect(sink.messages).toHaveLength(60);
      expect(new Set(sink.messages.map((m) => m.to[0])).size).toBe(60);
    });
  });

  describe('unsubscribe', () => {
    async function sentToken(email: string): Promise<string> {
      await seedSignUps(ids.shirt, ids.lNavy, [email]);
      await setStock(ids.lNavy, { qtyInStock: 1 });
      await drain(t);
      const raw = sink.to(email)[0]!.raw.replace(/=\r?\n/g, '');
      return /\/restock\/unsubscribe\/([0-9a-f]{24}\.[A-Za-z0-9_-]{43})/.exec(raw)![1]!;
    }

    it('shows a confirm page on GET, unsubscribes on POST, and withdraws the address from every waiting list', async () => {
      const token = await sentToken('leave@example.com');
      await seedSignUps(ids.throw, ids.clay, ['leave@example.com', 'stay@example.com']);
      const page = await t.app.inject({ method: 'GET', url: `/restock/unsubscribe/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('leave@example.com');
      expect(page.body).toContain('<button type="submit">Unsubscribe</button>');
      expect(await pending(ids.clay)).toBe(2);
      const post = await t.app.inject({ method: 'POST', url: `/restock/unsubscribe/${token}` });
      expect(post.statusCode).toBe(200);
      expect(post.body).toContain('You are unsubscribed');
      expect(await pending(ids.clay)).toBe(1);
      const again = await t.app.inject({
        method: 'POST',
        url: `/restock/unsubscribe/${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe('Unsubscribed');
      await setStock(ids.clay, { qtyInStock: 3 });
      await drain(t);
      expect(sink.to('leave@example.com')).toHaveLength(1);
      expect(sink.to('stay@example.com')).toHaveLength(1);
    });

    it('refuses forged and malformed tokens', async () => {
      const token = await sentToken('keep@example.com');
      const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      for (const bad of [forged, 'nope', `${'0'.repeat(24)}.${'A'.repeat(43)}`]) {
        expect((await t.app.inject({ method: 'GET', url: `/restock/unsubscribe/${bad}` })).statusCode).toBe(400);
        expect((await t.app.inject({ method: 'POST', url: `/restock/unsubscribe/${bad}` })).statusCode).toBe(400);
      }
      const r = await rows<{ unsubscribed_at: Date | null }>(
        t.database.db,
        sql`SELECT unsubscribed_at FROM restock_sign_ups WHERE email = 'keep@example.com'`,
      );
      expect(r[0]!.unsubscribed_at).toBeNull();
    });
  });

  describe('product page form', () => {
    it('draws the island for sold-out variants only, with the store texts', async () => {
      const html = restockSignUpHtml(
        {
          id: 'p1',
          structuredContent: { productType: 1, variants: [{ id: 'v1', sku: 'A', attributes: {}, qtyInStock: 0, unlimited: false }] },
        },
        { restockNotificationsSuccessText: 'Thanks!' },
      );
      expect(html).toContain('data-island="RestockSignUp"');
      expect(html).toContain('Thanks!');
      expect(
        restockSignUpHtml(
          { id: 'p1', structuredContent: { productType: 1, variants: [{ id: 'v1', attributes: {}, qtyInStock: 2, unlimited: false }] } },
          {},
        ),
      ).toBe('');
      expect(
        restockSignUpHtml(
          { id: 'p1', structuredContent: { productType: 2, variants: [{ id: 'v1', attributes: {}, qtyInStock: 0, unlimited: false }] } },
          {},
        ),
      ).toBe('');
      // The form follows the visitor's choice: shown for a sold-out variant; before a choice only for a
      // fully sold-out product, and not when the owner hides it by default.
      const shirt = (
        await rows<{ id: string; attributes: Record<string, string>; qty_in_stock: number; unlimited: boolean; sku: string }>(
          t.database.db,
          sql`SELECT id, sku, attributes, qty_in_stock, unlimited FROM product_variants WHERE item_id = ${ids.shirt} ORDER BY ordering`,
        )
      ).map((v) => ({ id: v.id, sku: v.sku, attributes: v.attributes, qtyInStock: v.qty_in_stock, unlimited: v.unlimited }));
      const props = restockSignUpProps(
        { id: ids.shirt, structuredContent: { productType: 1, variantOptionOrdering: ['Size', 'Color'], variants: shirt } },
        {},
      )!;
      expect(restockTarget(props, {}).visible).toBe(false);
      expect(restockTarget(props, { Size: 'L' }).visible).toBe(false);
      expect(restockTarget(props, { Size: 'L', Color: 'Navy' })).toMatchObject({ visible: true, variant: { id: ids.lNavy } });
      expect(restockTarget(props, { Size: 'M', Color: 'Navy' }).visible).toBe(false);
      const soldOut = {
        id: 'p',
        structuredContent: {
          productType: 1,
          variants: [
            { id: 'a', attributes: { Color: 'Clay' }, qtyInStock: 0 },
            { id: 'b', attributes: { Color: 'Oat' }, qtyInStock: 0 },
          ],
        },
      };
      expect(restockTarget(restockSignUpProps(soldOut, {})!, {})).toMatchObject({ visible: true, variant: null, missing: ['Color'] });
      expect(restockTarget(restockSignUpProps(soldOut, { restockNotifications: { hiddenByDefault: true } })!, {}).visible).toBe(false);
      expect(
        restockTarget(restockSignUpProps(soldOut, { restockNotifications: { hiddenByDefault: true } })!, { Color: 'Oat' }),
      ).toMatchObject({ visible: true, variant: { id: 'b' } });
      const form = await t.app.inject({ method: 'GET', url: `${API}/form` });
      expect(form.json()).toMatchObject({ captcha: { kind: 'altcha', action: 'product-waitlist' } });
    });
  });
});

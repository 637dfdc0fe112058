/**
 * The visitor's account pages, inside the theme's layout: sign in, sign up, password reset, the account
 * page, and the member-area access-denied page (page type 106) with its join button. The forms are the
 * AccountPage island; the server renders them first so they show before any script runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderIsland } from '../../web/ssr.js';
import { PageType } from '../../core/enums.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { siteLanguages } from './settings.js';
import { siteUserMessages } from './site-users.js';
import { CONFIRM_TITLE, type AccountMode, type AccountPageProps } from '../../core/api/accounts.js';
import { addressFormat, countryOptions, defaultCountry, nonceScripts } from '../site-page/index.js';
import { ACCOUNT_DONE, accountData, orderLinks } from './account-data.js';
import { NOINDEX_META, siteStylesHead } from '../site-page/index.js';
import { escapeHtml } from '../../core/html.js';

/** Only same-site paths are followed after sign-in (never //host or a scheme). */
export function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/(?![/\\])[\w\-/.%?=&]*$/.test(next) && next.length <= 300 ? next : undefined;
}

const TITLES: Record<AccountMode, string> = {
  login: 'Sign in',
  signup: 'Create an account',
  'reset-request': 'Reset your password',
  reset: 'Choose a new password',
  confirm: CONFIRM_TITLE,
  account: 'Your account',
  denied: 'Members only',
};

/** An account page (also the answer to the forms' plain posts, with their error or notice: platform/account-form.ts). */
export async function accountPage(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  mode: AccountMode,
  extra: Partial<AccountPageProps> = {},
  status = 200,
) {
  const { websites, theme, assets, carts } = app.services;
  const site = await websites.get();
  const path = req.url.split('?')[0] ?? '/';
  const q = req.query as Record<string, unknown>;
  const u = req.siteUser;
  const languages = siteLanguages(site);
  const props: AccountPageProps = {
    mode,
    // A code mapped to a message, never text from the address (a link could put any words there).
    error: q.error === 'link' ? siteUserMessages.LINK_EXPIRED : undefined,
    next: safeNext(q.next),
    user: u ? { email: u.email, displayName: u.displayName, language: u.language } : null,
    languages: languages.length > 1 ? languages : [],
    // The forms are plain posts too (no JavaScript): they carry the crumb.
    crumb: req.crumb,
    // A change's notice is a code mapped to the server's words (like `error` above).
    done: typeof q.done === 'string' && Object.hasOwn(ACCOUNT_DONE, q.done) ? ACCOUNT_DONE[q.done as keyof typeof ACCOUNT_DONE] : undefined,
    ...extra,
  };
  if (mode === 'account' && u && !props.dashboard) props.dashboard = await (await accountData(app)).dashboard(u, await orderLinks(app));
  if (mode === 'account' && u) {
    props.countries = countryOptions(site.locale);
    // The new-address form starts in the refused post's country, else the shop's; others load as picked.
    const posted = props.formError?.section === 'addresses' ? props.formError.values.country : '';
    props.addressFormat = addressFormat(posted || defaultCountry(site.locale, site.settings), site.locale);
  }
  const pageType = mode === 'denied' ? PageType.MEMBER_AREA_ACCESS_DENIED : PageType.PAGE;
  const context: Record<string, unknown> = {
    ...(await app.sitePageParts.siteContext(site, path)),
    pageType,
    pageTitle: TITLES[mode],
  };
  if (q.format === 'json') {
    reply.status(status).header('cache-control', 'no-store');
    return reply.send({ ...context, account: props });
  }
  const cart = await carts.find({ token: req.cookies[CART_COOKIE], siteUserId: u?.id ?? null });
  const nonce = req.cspNonce();
  const client = assets.tags('site', nonce);
  const injection = (site.settings.codeInjection ?? {}) as { header?: string; footer?: string };
  const mainContent = `<section class="account-page">${renderIsland('AccountPage', props as unknown as Record<string, unknown>)}</section>`;
  const tessera = {
    // The site's saved styles (colours and fonts as CSS variables) reach the account pages as every page.
    headers: `${NOINDEX_META}<link rel="stylesheet" href="/theme/site.css"><link rel="stylesheet" href="/theme/account.css">${await siteStylesHead(app, site.id)}${client.head}${nonceScripts(injection.header ?? '', nonce)}`,
    footers: `${client.body}${nonceScripts(injection.footer ?? '', nonce)}`,
    cartPill: renderIsland('CartPill', cart ? { totalQuantity: cart.totalQuantity, hasCart: true } : { totalQuantity: 0 }),
    title: escapeHtml(`${TITLES[mode]} — ${site.title}`),
    year: new Date().getUTCFullYear(),
    // Text on the accent colour (buttons), as the page pipeline sets it: white on a dark accent.
    accentText: (context.website as { accentIsDark: boolean }).accentIsDark ? '#ffffff' : '#1f1d1a',
  };
  const renderOpts = {
    locale: site.locale,
    timeZone: site.timeZone,
    renderer: app.sitePageParts.widgets(site),
  };
  const html = theme.render('site.region', { ...context, mainContent, tessera }, renderOpts);
  reply.status(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
  return reply.type('text/html; charset=utf-8').send(html);
}

export async function accountPages(app: FastifyInstance) {
  const page = (req: FastifyRequest, reply: FastifyReply, mode: AccountMode, extra: Partial<AccountPageProps> = {}, status = 200) =>
    accountPage(app, req, reply, mode, extra, status);

  app.get('/account', async (req, reply) => {
    if (!req.siteUser) return reply.redirect('/account/login', 303);
    return page(req, reply, 'account');
  });
  app.get('/account/login', async (req, reply) => {
    if (req.siteUser) return reply.redirect('/account', 303);
    return page(req, reply, 'login');
  });
  app.get('/account/signup', async (req, reply) => page(req, reply, 'signup'));
  /** The join button of the member-area access-denied page lands here. */
  app.get('/account/join', async (req, reply) => page(req, reply, 'signup'));
  app.get('/account/reset', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    if (typeof token === 'string' && token.length > 0 && token.length <= 100) return page(req, reply, 'reset', { token });
    return page(req, reply, 'reset-request');
  });
  /** The member-area access-denied page: a visitor without access sees why, and a join button. */
  app.get('/account/denied', async (req, reply) => page(req, reply, 'denied', {}, 403));
}

/**
 * What the engagement area adds to every themed page (one call from the page pipeline):
 * - the promo popup island (page type 104 overlay) on the pages the owner chose; it renders nothing on
 *   the server and its chunk loads only on pages that carry it;
 * - the cookie banner island while the visitor has not decided (it works as a plain form without JS);
 * - under an opt-in banner, the owner's header/footer scripts are made inert (`type="text/plain"`) until
 *   the visitor allows third-party scripts; the banner runs them on consent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { renderIsland } from '../../web/ssr.js';
import { PageType } from '../../core/enums.js';
import { bannerDue, categoryAllowed, parseChoices, popupOnPage, type CookieBannerMode } from '../../core/engagement.js';
import { CONSENT_CHOICES_COOKIE, NOTICE_COOKIE } from '../../core/cookies.js';
import { engagement as m } from '../../core/messages.js';
import { siteCaptcha } from '../captcha/index.js';
import { popupPublic, type EngagementSettingsService } from './settings.js';
import { CONSENT_PATH } from './routes.js';

/** Pages that never carry the popup or the banner (errors, gates, checkout). */
const QUIET_PAGES = new Set<number>([
  PageType.NOT_FOUND,
  PageType.ERROR,
  PageType.LOCK_SCREEN,
  PageType.MEMBER_AREA_ACCESS_DENIED,
  PageType.CHECKOUT,
]);

export const GATED_ATTR = 'data-tessera-consent';

/** Makes the scripts of owner HTML inert until consent; JSON data scripts (ld+json, ...) stay as they are. */
export function gateScripts(html: string): string {
  if (!html) return html;
  return html.replace(/<script\b([^>]*)>/gi, (tag, attrs: string) => {
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') return tag;
    const rest = attrs.replace(/\btype\s*=\s*(["'][^"']*["']|[^\s>]+)/i, '');
    return `<script type="text/plain" ${GATED_ATTR}="marketing" data-type="${type ?? ''}"${rest}>`;
  });
}

export interface EngagementParts {
  header: string;
  footer: string;
}

const byDatabase = new WeakMap<Database, EngagementSettingsService>();

/** The area plugin hands its settings service over (pages of an app without the area stay as they are). */
export function setMarkupSettings(database: Database, settings: EngagementSettingsService): void {
  byDatabase.set(database, settings);
}

export async function engagementParts(
  app: FastifyInstance,
  req: FastifyRequest,
  page: { pageType: number; path: string; header: string; footer: string },
): Promise<EngagementParts> {
  const settingsService = byDatabase.get(app.database);
  if (!settingsService || QUIET_PAGES.has(page.pageType)) return { header: page.header, footer: page.footer };
  const site = await app.services.websites.get();
  const { popup, cookieBanner } = await settingsService.get(site.id);
  const mode: CookieBannerMode = cookieBanner.mode;
  const choices = parseChoices(req.cookies[CONSENT_CHOICES_COOKIE]);
  const scriptsAllowed = categoryAllowed(mode, choices, 'marketing');
  const header = scriptsAllowed ? page.header : gateScripts(page.header);
  let footer = scriptsAllowed ? page.footer : gateScripts(page.footer);

  let styles = false;
  if (popup.enabled && popupOnPage(popup.pages, page.path)) {
    styles = true;
    const captcha = popup.action === 'newsletter' && popup.captcha ? (await siteCaptcha(app, site.id)).publicConfig('promo-popup') : null;
    footer += renderIsland('PromoPopup', { popup: popupPublic(popup), captcha, pageType: PageType.POPUP_OVERLAY });
  }
  if (bannerDue(mode, { choices: req.cookies[CONSENT_CHOICES_COOKIE], notice: req.cookies[NOTICE_COOKIE] })) {
    styles = true;
    footer += renderIsland('CookieBanner', {
      mode,
      text: cookieBanner.text || (mode === 'notice' ? m.BANNER_NOTICE_DEFAULT : m.BANNER_OPT_IN_DEFAULT),
      policyUrl: cookieBanner.policyUrl,
      action: CONSENT_PATH,
      crumb: req.crumb,
      back: page.path,
    });
  }
  return { header: styles ? `<link rel="stylesheet" href="/theme/engagement.css">${header}` : header, footer };
}

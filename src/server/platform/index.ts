import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SiteUserService } from './site-users.js';
import { siteUserPlugin } from './site-user-plugin.js';
import { siteUserRoutes } from './site-user-routes.js';
import { settingsRoutes } from './settings.js';
import { placesProviderFromEnv } from './places.js';
import { teamRoutes } from './team-routes.js';
import { auditRoutes } from './audit-routes.js';
import { storeSettingsRoutes } from './store-settings-routes.js';
import { accountPages } from './account-pages.js';
import { siteAddressRoutes } from './site-address.js';
import { connectedAccountRoutes } from './connected-accounts.js';
import { ownerHomeRoutes } from './owner-home.js';
import { outboxRoutes } from './outbox-routes.js';
import { emailSettingsRoutes } from './email-settings-routes.js';
import { teamInviteRoutes } from './team-invites.js';
import { customerRoutes } from './customer-routes.js';
import { accountRoutes } from './account-routes.js';
import { addressFormatRoutes } from './address-format-routes.js';

export type { SignInPolicy } from './sign-in-limits.js';

/**
 * Platform settings calls (site users, header/footer, multilingual, store creation, preferences) and the
 * /config data calls. Wrapped with fastify-plugin so the site-user session hook applies to every route
 * (the commerce cart reads req.siteUser to follow a signed-in user across devices).
 */
export const platformArea = fp(async (app: FastifyInstance): Promise<void> => {
  const siteUsers = new SiteUserService(app.database, app.services.mailer);
  app.decorate('siteUsers', siteUsers);
  await app.register(siteUserPlugin, { siteUsers });
  await app.register(siteUserRoutes, { siteUsers });
  app.decorate('places', { provider: placesProviderFromEnv(process.env) });
  await app.register(settingsRoutes);
  await app.register(storeSettingsRoutes);
  await app.register(teamRoutes);
  await app.register(auditRoutes);
  await app.register(accountPages);
  await app.register(siteAddressRoutes);
  await app.register(connectedAccountRoutes);
  await app.register(ownerHomeRoutes);
  await app.register(outboxRoutes);
  await app.register(emailSettingsRoutes);
  await app.register(teamInviteRoutes);
  await app.register(customerRoutes);
  await app.register(accountRoutes);
  await app.register(addressFormatRoutes);
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The site-user service whose sessions the request hook reads (kept per write on PGlite). */
    siteUsers: SiteUserService;
  }
}
export { prefillFromAccount } from './account-data.js';
export { safeNext } from './account-pages.js';
export { audit } from './audit.js';
export { ownerNotificationsOf, ownerOrderHook } from './owner-notifications.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { appReservedUrlIds, changeSettings, changeSettingsSection, multilingualOf, RESERVED_URL_IDS } from './settings.js';
export { normEmail, type SiteUserConfirmedHook, siteUserConfirmedHooks, SiteUserService } from './site-users.js';
export { type StockChangedHook, stockChangedHooks } from './stock-hooks.js';
export { parseInput } from './validate.js';
export type { NavLink, WebsiteRow, WebsiteService } from './websites.js';
export { idParam, ownerSiteOf, type Site, STALE_EDIT, staleEdit, versionQuery } from './config-common.js';

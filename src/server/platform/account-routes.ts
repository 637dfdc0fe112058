/**
 * The account calls of a signed-in site user (issue 27): orders (with reorder), downloads, subscriptions
 * (cancel), saved addresses, newsletter preferences and restock alerts. Data in account-data.ts.
 *
 * JSON calls need the session and its X-SiteUser-XSRF-Token (requireSiteUser), like every account call.
 * The account page's forms are plain posts too (no JavaScript): they carry the crumb (checked for every
 * /api post by plugins/crumb.ts) and the session cookie (SameSite=Lax); the answer is a 303 back to the
 * account page with a code for the notice, or the account page again with the error next to its form.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isFormPost } from '../visitor/index.js';
import { HttpError, badRequest } from '../errors.js';
import { parseInput } from './validate.js';
import { accountData, accountMessages, orderLinks, type AccountData, type AccountDone } from './account-data.js';
import { accountPage } from './account-pages.js';
import { siteUserMessages, type SiteUser } from './site-users.js';
import { cartIdent, setCartCookie } from '../visitor/index.js';
import type { AccountFormError } from '../../core/api/accounts.js';

const idParam = z.object({ id: z.string().trim().min(1).max(64) });
const newslettersBody = z.object({
  listIds: z
    .union([z.array(z.string().max(64)).max(100), z.string().max(64)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

export async function accountRoutes(app: FastifyInstance) {
  /** The signed-in user of a call: a plain form post needs the session (its crumb is already checked), a JSON call also the xsrf header. */
  async function userOf(req: FastifyRequest, reply: FastifyReply): Promise<SiteUser> {
    if (!isFormPost(req)) await app.requireSiteUser.call(app, req, reply);
    if (!req.siteUser) throw new HttpError(401, siteUserMessages.SIGN_IN_REQUIRED);
    reply.header('cache-control', 'no-store');
    return req.siteUser;
  }

  /**
   * One change, answered as JSON or, for a plain form post, a 303 to the account page (with the notice's code)
   * or the account page with the error shown at its form and the values kept.
   */
  async function change(
    req: FastifyRequest,
    reply: FastifyReply,
    section: AccountFormError['section'],
    done: AccountDone | null,
    run: (u: SiteUser, data: AccountData) => Promise<unknown>,
  ) {
    if (isFormPost(req) && !req.siteUser) return reply.redirect('/account/login?next=/account', 303);
    const u = await userOf(req, reply);
    const data = await accountData(app);
    if (!isFormPost(req)) return run(u, data);
    try {
      const result = await run(u, data);
      if (done) return reply.redirect(`/account?done=${done}#${section}`, 303);
      return result;
    } catch (e) {
      if (!(e instanceof HttpError) || e.status >= 500) throw e;
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const values: Record<string, string> = {};
      for (const [k, v] of Object.entries(body)) if (k !== 'crumb' && typeof v === 'string') values[k] = v.slice(0, 200);
      return accountPage(
        app,
        req,
        reply,
        'account',
        { formError: { section, message: e.message, errors: e.errors ?? {}, values } },
        e.status,
      );
    }
  }

  app.get('/api/site-users/account/orders', { preHandler: app.requireSiteUser }, async (req, reply) => {
    const u = await userOf(req, reply);
    return (await accountData(app)).orders(u, await orderLinks(app));
  });

  /** Puts an order's lines back in the user's cart and goes to checkout (the saved address prefills it). */
  app.post('/api/site-users/account/orders/:id/reorder', async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    const site = await app.services.websites.get();
    const multipleServices = app.services.websites.storeSettings(site).multipleQuantityAllowedForServices;
    let added = 0;
    let skipped = 0;
    const answer = await change(req, reply, 'orders', null, async (u, data) => {
      const lines = await data.reorderLines(u, id);
      const ident = cartIdent(req);
      let firstError = '';
      for (const l of lines) {
        try {
          const res = await app.services.carts.add(site.id, ident, { ...l, additionalFields: '', multipleServices }, site.currency);
          if (res.token && res.token !== ident.token) {
            setCartCookie(req, reply, res.token);
            ident.token = res.token;
          }
          added++;
        } catch (e) {
          // A line that is sold out, gone or needs its additional fields again is left out; the rest go in.
          if (!(e instanceof HttpError) || e.status >= 500) throw e;
          firstError ||= e.message;
          skipped++;
        }
      }
      if (added === 0) throw badRequest(firstError || accountMessages.NOTHING_TO_REORDER);
      return { added, skipped, redirect: '/checkout' };
    });
    if (reply.sent || !isFormPost(req) || added === 0) return answer;
    return reply.redirect('/checkout', 303);
  });

  app.get('/api/site-users/account/subscriptions', { preHandler: app.requireSiteUser }, async (req, reply) => {
    const u = await userOf(req, reply);
    return { subscriptions: await (await accountData(app)).subscriptions(u) };
  });
  app.post('/api/site-users/account/subscriptions/:id/cancel', async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    return change(req, reply, 'subscriptions', 'subscription-canceled', async (u, data) => {
      await data.cancelSubscription(u, id, (websiteId, sid) => app.checkout.service.cancelSubscription(websiteId, sid));
      return { subscriptions: await data.subscriptions(u) };
    });
  });

  app.get('/api/site-users/account/addresses', { preHandler: app.requireSiteUser }, async (req, reply) => {
    const u = await userOf(req, reply);
    return { addresses: await (await accountData(app)).addresses(u) };
  });
  app.post('/api/site-users/account/addresses', async (req, reply) =>
    change(req, reply, 'addresses', 'address-saved', async (u, data) => ({ address: await data.addAddress(u, req.body) })),
  );
  const removeAddress = async (req: FastifyRequest, reply: FastifyReply) => {
    const { id } = parseInput(idParam, req.params);
    return change(req, reply, 'addresses', 'address-removed', async (u, data) => {
      await data.removeAddress(u, id);
      return { addresses: await data.addresses(u) };
    });
  };
  app.delete('/api/site-users/account/addresses/:id', removeAddress);
  /** The plain form's way to remove (a form cannot send DELETE). */
  app.post('/api/site-users/account/addresses/:id/remove', removeAddress);
  app.post('/api/site-users/account/addresses/:id/default', async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    return change(req, reply, 'addresses', 'address-default', async (u, data) => {
      await data.setDefaultAddress(u, id);
      return { addresses: await data.addresses(u) };
    });
  });

  app.get('/api/site-users/account/newsletters', { preHandler: app.requireSiteUser }, async (req, reply) => {
    const u = await userOf(req, reply);
    return { newsletters: await (await accountData(app)).newsletters(u) };
  });
  app.post('/api/site-users/account/newsletters', async (req, reply) =>
    change(req, reply, 'newsletters', 'newsletters-saved', async (u, data) => {
      const { listIds } = parseInput(newslettersBody, req.body);
      await data.setNewsletters(u, listIds);
      return { newsletters: await data.newsletters(u) };
    }),
  );

  app.get('/api/site-users/account/restock-alerts', { preHandler: app.requireSiteUser }, async (req, reply) => {
    const u = await userOf(req, reply);
    return { restockAlerts: await (await accountData(app)).restock(u) };
  });
  app.post('/api/site-users/account/restock-alerts/:id/remove', async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    return change(req, reply, 'restock', 'restock-removed', async (u, data) => {
      await data.removeRestock(u, id);
      return { restockAlerts: await data.restock(u) };
    });
  });
}

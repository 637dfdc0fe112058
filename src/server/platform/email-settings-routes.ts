/**
 * Email settings (issue 23), admins only, never cached:
 * - GET /api/admin/email-settings: where delivery is set (environment, these settings, or nowhere), the saved
 *   relay without its password (passwordSet says whether one is kept), the owner notifications' switches and
 *   the address they go to.
 * - PUT /api/admin/email-settings/smtp: saves the relay and uses it at once (refused while SMTP_URL is set).
 * - DELETE /api/admin/email-settings/smtp: forgets it; new mail is kept in the outbox again.
 * - POST /api/admin/email-settings/test: sends one email straight through the relay in use (not through the
 *   outbox) and answers with the relay's error when it fails. Rate-limited per account.
 * - PUT /api/admin/email-settings/notifications: the new order / form submission / low stock switches.
 * At start (and every 30 s, so every instance follows a change) the saved relay is given to the mailer.
 */
import { testMailIn } from '../../core/api/email.js';
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { isEmailAddress } from '../../core/email.js';
import { HttpError } from '../errors.js';
import { parseInput } from './validate.js';
import { changeSettings } from './settings.js';
import { audit } from './audit.js';
import {
  SmtpSettingsStore,
  SMTP_MESSAGES,
  publicOf,
  scrubbed,
  smtpInputSchema,
  transportFor,
  nodemailerFor,
  type SmtpRow,
} from '../mail/index.js';
import { ownerAddress, ownerNotificationsOf, ownerNotificationsSchema } from './owner-notifications.js';
import { registerEmailPreview } from '../mail/index.js';
import { newOrderMail, lowStockMail } from './owner-notifications.js';
import type { OrderRow } from '../../core/orders.js';
import { can } from '../../core/roles.js';

const TEST_LIMIT = {
  name: 'smtp-test',
  max: 5,
  windowMs: 60_000,
  message: 'Too many test emails in a minute. Wait a moment and try again.',
};
const REFRESH_MS = 30_000;

export const TEST_SUBJECT = 'Test email from Tessera';

registerEmailPreview('owner-new-order', {
  label: 'New order (to you)',
  render: (ctx) => {
    const order = {
      id: 'sample',
      orderNumber: 1001,
      email: 'customer@example.com',
      currency: ctx.currency,
      grandTotalCents: 4200,
      items: [{ quantity: 2, productName: 'Enamel mug', sku: 'MUG-01' }],
    } as unknown as OrderRow;
    return newOrderMail(order, 'you@example.com', ctx.storeName, ctx.origin);
  },
});
registerEmailPreview('owner-low-stock', {
  label: 'Low stock (to you)',
  render: (ctx) =>
    lowStockMail(
      [{ variantId: 'v', productId: 'sample', title: 'Enamel mug', variant: 'Blue', qtyInStock: 2 }],
      'you@example.com',
      ctx.storeName,
      ctx.origin,
      'sample',
    ),
});

const auditOf = (r: SmtpRow) => ({
  host: r.host,
  port: r.port,
  security: r.security,
  username: r.username,
  passwordSet: r.password !== '',
  fromAddress: r.fromAddress,
});

export async function emailSettingsRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const store = new SmtpSettingsStore(app.database);
  const mailer = app.services.mailer;
  const fromEnv = !!app.config.SMTP_URL;
  const admin = { preHandler: app.requireOwner(can('email-delivery', 'write')) };
  const adminRead = { preHandler: app.requireOwner(can('email-delivery', 'read')) };
  let applied = '';

  /** Gives the mailer the saved relay (when the environment sets none). */
  const apply = (row: SmtpRow | null) => {
    if (fromEnv) return;
    const key = row ? JSON.stringify(row) : '';
    if (key === applied) return;
    applied = key;
    mailer.setRelay(row ? transportFor(row) : null, row?.fromAddress || app.config.MAIL_FROM);
  };
  const reload = async () => {
    const site = await app.services.websites.get();
    apply(await store.get(site.id));
  };

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await reload().catch((e: unknown) => app.log.warn({ err: (e as Error).message }, 'could not read the SMTP settings'));
    if (!fromEnv) {
      timer = setInterval(() => void reload().catch(() => undefined), REFRESH_MS);
      timer.unref();
    }
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  app.get('/api/admin/email-settings', adminRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const site = await app.services.websites.get();
    const row = await store.get(site.id);
    return {
      source: fromEnv ? 'environment' : row ? 'settings' : 'none',
      smtp: row ? publicOf(row) : null,
      notifications: ownerNotificationsOf(site.settings),
      notifyTo: await ownerAddress(db, site.id),
      signedIn: req.owner!.email,
    };
  });

  app.put('/api/admin/email-settings/smtp', admin, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (fromEnv) throw new HttpError(409, SMTP_MESSAGES.ENV);
    const body = parseInput(smtpInputSchema, req.body);
    const site = await app.services.websites.get();
    const row = await db.transaction(async (tx) => {
      const before = await store.get(site.id, tx);
      const saved = await store.save(site.id, body, tx);
      // The audit row says what changed, never the password.
      await audit(tx, {
        websiteId: site.id,
        accountId: req.owner!.id,
        action: 'email.smtp',
        entity: 'smtp',
        entityId: site.id,
        before: before ? auditOf(before) : null,
        after: auditOf(saved),
      });
      return saved;
    });
    apply(row);
    return { smtp: publicOf(row) };
  });

  app.delete('/api/admin/email-settings/smtp', admin, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (fromEnv) throw new HttpError(409, SMTP_MESSAGES.ENV);
    const site = await app.services.websites.get();
    await db.transaction(async (tx) => {
      const before = await store.get(site.id, tx);
      await store.remove(site.id, tx);
      await audit(tx, {
        websiteId: site.id,
        accountId: req.owner!.id,
        action: 'email.smtp.remove',
        entity: 'smtp',
        entityId: site.id,
        before: before ? auditOf(before) : null,
      });
    });
    apply(null);
    return { ok: true };
  });

  app.post(
    '/api/admin/email-settings/test',
    {
      preHandler: [
        app.requireOwner(can('email-delivery', 'write')),
        app.services.rateLimiter.guard({ ...TEST_LIMIT, key: (r) => `acct:${r.owner?.id ?? r.ip}` }),
      ],
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const body = parseInput(testMailIn, req.body ?? {});
      const to = body.to || req.owner!.email;
      if (!isEmailAddress(to))
        throw new HttpError(400, 'Enter an email address such as hello@example.com.', {
          to: 'Enter an email address such as hello@example.com.',
        });
      const site = await app.services.websites.get();
      const row = fromEnv ? null : await store.get(site.id);
      if (!fromEnv && !row) throw new HttpError(409, 'Save the SMTP settings first: there is no relay to send through.');
      const transporter = row ? nodemailerFor(row) : nodemailer.createTransport(app.config.SMTP_URL!);
      const from = row?.fromAddress || app.config.MAIL_FROM;
      try {
        await transporter.sendMail({
          from,
          to,
          subject: TEST_SUBJECT,
          text: `This is a test email from ${site.title}. If you can read it, email delivery works.\n`,
        });
        return { ok: true, to };
      } catch (e) {
        const secret =
          row?.password ??
          (() => {
            try {
              return decodeURIComponent(new URL(app.config.SMTP_URL!).password);
            } catch {
              return '';
            }
          })();
        return { ok: false, to, error: scrubbed((e as Error).message, secret) };
      } finally {
        transporter.close();
      }
    },
  );

  app.put(
    '/api/admin/email-settings/notifications',
    { preHandler: app.requireOwner(can('email-delivery', 'write')) },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const body = parseInput(ownerNotificationsSchema, req.body);
      const site = await app.services.websites.get();
      await db.transaction((tx) =>
        changeSettings(tx, site.id, req.owner!.id, 'email.notifications', (s) => ({ ...s, ownerNotifications: body })),
      );
      app.services.websites.invalidate();
      return { notifications: body };
    },
  );
}

/**
 * Keeping the owner able to sign in (issue 41).
 *
 * - First sign-in: an account that still has no password, or the first start's placeholder email, is sent
 *   from the one-time link (and from any /config screen) to /config/welcome, where the owner chooses the
 *   email and the password they sign in with from then on.
 * - Forgotten password: /config/forgot takes an email and always answers the same; when an owner account
 *   has it, a reset link from the public origin (email-origin.ts) goes out through the outbox. The link works
 *   once, for RESET_MINUTES, and setting the new password ends every session of the account.
 *   Limited per IP address and per email tried; a limited email gets the same answer and no mail.
 *
 * The pages are server-rendered forms (they work without scripts), with each error tied to its field.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEmailAddress } from '../../core/email.js';
import { ownerAccount as words } from '../../core/messages.js';
import { HttpError } from '../errors.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import { PLACEHOLDER_EMAIL, RESET_MINUTES, type OwnerService } from './owners.js';
import { escapeHtml } from '../../core/html.js';
import { adminCardPage, sendPrivatePage } from '../private-page.js';

export const FORGOT_LIMITS = {
  ip: { name: 'owner-forgot-ip', max: 10, windowMs: 15 * 60_000, message: words.TOO_MANY_RESETS },
  email: { name: 'owner-forgot-email', max: 3, windowMs: 3_600_000, message: words.TOO_MANY_RESETS },
  reset: { name: 'owner-reset-ip', max: 10, windowMs: 15 * 60_000, message: words.TOO_MANY_RESETS },
  setup: { name: 'owner-setup-ip', max: 20, windowMs: 15 * 60_000, message: words.TOO_MANY_RESETS },
} as const;

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 1024;

type FieldErrors = Partial<Record<'email' | 'password' | 'confirm', string>>;

const page = (reply: FastifyReply, status: number, title: string, body: string) =>
  sendPrivatePage(reply, status, adminCardPage(title, body));

/** A labelled input with its hint and error, tied to it by aria-describedby. */
function field(name: keyof FieldErrors, label: string, input: string, errors: FieldErrors, hint?: string): string {
  const error = errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const aria = (described ? ` aria-describedby="${described}"` : '') + (error ? ' aria-invalid="true"' : '');
  return (
    `<div class="admin-login__field"><label for="${name}">${escapeHtml(label)}</label>` +
    (hint ? `<p class="admin-login__hint" id="${name}-hint">${escapeHtml(hint)}</p>` : '') +
    `<input id="${name}" name="${name}"${aria} ${input}>` +
    (error ? `<p class="admin-login__field-error" id="${name}-error">${escapeHtml(error)}</p>` : '') +
    `</div>`
  );
}

/** A form's problem summary: announced, and naming how many fields need attention. */
function summary(errors: FieldErrors, general?: string): string {
  const n = Object.keys(errors).length;
  const text = general ?? (n === 1 ? words.FIX_ONE : n > 1 ? words.fixMany(n) : '');
  return text ? `<p role="alert" class="admin-login__error">${escapeHtml(text)}</p>` : '';
}

/** The password pair's problems (length, repeat). */
function passwordErrors(password: string, confirm: string): FieldErrors {
  if (password.length < PASSWORD_MIN) return { password: words.PASSWORD_SHORT };
  if (password.length > PASSWORD_MAX) return { password: words.PASSWORD_LONG };
  if (confirm !== password) return { confirm: words.PASSWORD_MISMATCH };
  return {};
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const isForm = (req: FastifyRequest) => (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/** An account's first sign-in: the owner chooses their own email and password. */
function registerFirstSetup(app: FastifyInstance, owners: OwnerService) {
  const limiter = app.services.rateLimiter;

  // ---- First sign-in: choose the email and password ----------------------------------------------------

  const setupForm = (crumb: string, email: string, errors: FieldErrors = {}, general?: string) =>
    `<h1>${escapeHtml(words.SETUP_HEADING)}</h1><p>${escapeHtml(words.SETUP_INTRO)}</p>` +
    `<form method="post" action="/api/auth/setup" novalidate>${summary(errors, general)}` +
    `<input type="hidden" name="crumb" value="${escapeHtml(crumb)}">` +
    field(
      'email',
      'Your email',
      `type="email" autocomplete="username" maxlength="320" required value="${escapeHtml(email)}"`,
      errors,
      words.SETUP_EMAIL_HINT,
    ) +
    field(
      'password',
      'Choose a password',
      `type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required`,
      errors,
      words.PASSWORD_HINT,
    ) +
    field('confirm', 'Repeat the password', `type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required`, errors) +
    `<button type="submit">Save and continue</button></form>`;

  app.get('/config/welcome', async (req, reply) => {
    const owner = await app.loadOwner(req);
    if (!owner) return reply.redirect('/config/login', 303);
    if (!(await owners.needsSetup(owner.id))) return reply.redirect('/config', 303);
    return page(reply, 200, words.SETUP_HEADING, setupForm(req.crumb, owner.email === PLACEHOLDER_EMAIL ? '' : owner.email));
  });

  app.post('/api/auth/setup', { preHandler: limiter.guard(FORGOT_LIMITS.setup) }, async (req, reply) => {
    const owner = await app.loadOwner(req);
    if (!owner) {
      if (isForm(req)) return reply.redirect('/config/login', 303);
      throw new HttpError(401, 'Please sign in to continue.');
    }
    // Only for an account that still has to choose: a signed-in session is not enough to change a password.
    if (!(await owners.needsSetup(owner.id))) {
      if (isForm(req)) return reply.redirect('/config', 303);
      throw new HttpError(409, words.SETUP_DONE);
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const email = text(body.email).trim().slice(0, 400);
    const password = text(body.password);
    const errors: FieldErrors = {};
    if (!isEmailAddress(email, 320) || email.toLowerCase() === PLACEHOLDER_EMAIL) errors.email = words.EMAIL_INVALID;
    Object.assign(errors, passwordErrors(password, text(body.confirm)));
    const refuse = (errs: FieldErrors, status = 400) => {
      if (isForm(req)) return page(reply, status, words.SETUP_HEADING, setupForm(req.crumb, email, errs));
      throw new HttpError(status, Object.values(errs)[0]!, errs as Record<string, string>);
    };
    if (Object.keys(errors).length) return refuse(errors);
    const result = await owners.completeSetup(owner.id, email, password, req.cookies[OWNER_COOKIE]);
    if (result === 'taken') return refuse({ email: words.EMAIL_TAKEN }, 409);
    req.log.info({ event: 'owner-setup', accountId: owner.id }, 'owner chose their email and password');
    if (isForm(req)) return reply.redirect('/config', 303);
    return { ok: true };
  });
}

export async function ownerRecoveryRoutes(app: FastifyInstance, opts: { owners: OwnerService }) {
  const { owners } = opts;
  const limiter = app.services.rateLimiter;

  registerFirstSetup(app, owners);

  // ---- Forgotten password ------------------------------------------------------------------------------

  const forgotForm = (crumb: string, email = '', errors: FieldErrors = {}, general?: string) =>
    `<h1>${escapeHtml(words.FORGOT_HEADING)}</h1><p>${escapeHtml(words.FORGOT_INTRO)}</p>` +
    `<form method="post" action="/api/auth/forgot" novalidate>${summary(errors, general)}` +
    `<input type="hidden" name="crumb" value="${escapeHtml(crumb)}">` +
    field('email', 'Email', `type="email" autocomplete="username" maxlength="320" required value="${escapeHtml(email)}"`, errors) +
    `<button type="submit">Email me a reset link</button></form><p><a href="/config/login">Back to sign in</a></p>`;

  const sentPage = (reply: FastifyReply) =>
    page(
      reply,
      200,
      words.FORGOT_HEADING,
      `<h1>${escapeHtml(words.FORGOT_HEADING)}</h1><p role="status">${escapeHtml(words.RESET_SENT)}</p><p><a href="/config/login">Back to sign in</a></p>`,
    );

  app.get('/config/forgot', async (req, reply) => page(reply, 200, words.FORGOT_HEADING, forgotForm(req.crumb)));

  app.post('/api/auth/forgot', async (req, reply) => {
    const email = text((req.body as Record<string, unknown> | undefined)?.email)
      .trim()
      .slice(0, 400);
    if ((await limiter.hit(FORGOT_LIMITS.ip, req.ip)) > FORGOT_LIMITS.ip.max) {
      if (isForm(req)) return page(reply, 429, words.FORGOT_HEADING, forgotForm(req.crumb, email, {}, words.TOO_MANY_RESETS));
      throw new HttpError(429, words.TOO_MANY_RESETS, undefined, { retryAfterSeconds: 900 });
    }
    if (!isEmailAddress(email, 320)) {
      if (isForm(req)) return page(reply, 400, words.FORGOT_HEADING, forgotForm(req.crumb, email, { email: words.EMAIL_INVALID }));
      throw new HttpError(400, words.EMAIL_INVALID, { email: words.EMAIL_INVALID });
    }
    const key = email.toLowerCase();
    // Past the per-email limit the answer stays the same; only the mail is not sent.
    if ((await limiter.hit(FORGOT_LIMITS.email, key)) <= FORGOT_LIMITS.email.max) await sendReset(key);
    if (isForm(req)) return sentPage(reply);
    return { ok: true, message: words.RESET_SENT };
  });

  async function sendReset(email: string): Promise<void> {
    const owner = await owners.byEmail(email);
    if (!owner || owner.email === PLACEHOLDER_EMAIL) return;
    const token = await owners.createResetToken(owner.id);
    const link = `${await app.emailOrigin()}/config/reset?token=${encodeURIComponent(token)}`;
    const site = await app.services.websites.get();
    await app.services.mailer.enqueue(app.database.db, {
      kind: 'owner-password-reset',
      to: owner.email,
      subject: words.resetSubject(site.title),
      text: words.resetText(link, RESET_MINUTES),
      html: `<p>${escapeHtml(words.RESET_HTML_INTRO)}</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>${escapeHtml(words.resetHtmlNote(RESET_MINUTES))}</p>`,
      ref: `owner-reset:${owner.id}`,
    });
    app.services.mailer.kick();
  }

  // ---- The emailed link: choose a new password ----------------------------------------------------------

  const resetForm = (crumb: string, token: string, email: string, errors: FieldErrors = {}) =>
    `<h1>${escapeHtml(words.RESET_HEADING)}</h1><p>${escapeHtml(words.resetIntro(email))}</p>` +
    `<form method="post" action="/api/auth/reset" novalidate>${summary(errors)}` +
    `<input type="hidden" name="crumb" value="${escapeHtml(crumb)}"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<input type="email" name="username" value="${escapeHtml(email)}" autocomplete="username" hidden readonly>` +
    field(
      'password',
      'New password',
      `type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required`,
      errors,
      words.PASSWORD_HINT,
    ) +
    field('confirm', 'Repeat the password', `type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required`, errors) +
    `<button type="submit">Save the new password</button></form>`;

  const expiredPage = (reply: FastifyReply) =>
    page(
      reply,
      410,
      words.RESET_HEADING,
      `<h1>${escapeHtml(words.RESET_HEADING)}</h1><p role="alert" class="admin-login__error">${escapeHtml(words.RESET_EXPIRED)}</p><p><a href="/config/forgot">Ask for a new link</a></p>`,
    );

  app.get('/config/reset', async (req, reply) => {
    const token = text((req.query as Record<string, unknown>).token);
    const account = await owners.resetAccount(token);
    if (!account) return expiredPage(reply);
    return page(reply, 200, words.RESET_HEADING, resetForm(req.crumb, token, account.email));
  });

  app.post('/api/auth/reset', { preHandler: limiter.guard(FORGOT_LIMITS.reset) }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = text(body.token);
    const account = await owners.resetAccount(token);
    if (!account) {
      if (isForm(req)) return expiredPage(reply);
      throw new HttpError(410, words.RESET_EXPIRED);
    }
    const errors = passwordErrors(text(body.password), text(body.confirm));
    if (Object.keys(errors).length) {
      if (isForm(req)) return page(reply, 400, words.RESET_HEADING, resetForm(req.crumb, token, account.email, errors));
      throw new HttpError(400, Object.values(errors)[0]!, errors as Record<string, string>);
    }
    const owner = await owners.completeReset(token, text(body.password));
    if (!owner) {
      if (isForm(req)) return expiredPage(reply);
      throw new HttpError(410, words.RESET_EXPIRED);
    }
    req.log.info({ event: 'owner-password-reset', accountId: owner.id }, 'owner password reset; sessions ended');
    // Every earlier session ended with the reset; the person who proved the mailbox is signed in afresh.
    const session = await owners.startSession(owner.id);
    app.setOwnerCookie(req, reply, session.token, session.expiresAt);
    if (isForm(req)) return reply.redirect('/config', 303);
    return { ok: true };
  });
}

/**
 * The captcha's no-script path. The self-hosted captcha (altcha) is a proof of work the browser computes
 * in JavaScript, and reCAPTCHA needs the vendor's script, so a visitor without JavaScript can never send a
 * captcha token. Their plain form posts (contact and other site forms, newsletter blocks, the restock
 * sign-up, the promo popup's sign-up) are instead checked by:
 * - the honeypot: a field hidden from people (`honeypot`) that only a bot fills in;
 * - a tight rate limit per IP address on posts without a captcha, NO_SCRIPT_LIMIT, on top of each
 *   form's own limits.
 * A post that passes is handled exactly as one with a captcha (the owner is notified, the address joins
 * the mailing list). A post that fails is refused with a page that says so plainly: the visitor is
 * never thanked for a message that was dropped or filed as spam.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

export const NO_SCRIPT_MESSAGES = Object.freeze({
  /** The honeypot was filled in. */
  HONEYPOT: 'Your message could not be accepted. Please try again, or turn on JavaScript and send it from the page.',
  /** Too many posts without JavaScript from this network. */
  RATE_LIMITED:
    'Your message could not be accepted: too many messages were sent without JavaScript from your network. Please wait a few minutes and try again, or turn on JavaScript.',
});

/** Posts without a captcha token: 10 per 10 minutes per IP address. */
export const NO_SCRIPT_LIMIT = { name: 'no-script-post', max: 10, windowMs: 10 * 60_000, message: NO_SCRIPT_MESSAGES.RATE_LIMITED };

const filled = (v: unknown) =>
  typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) ? v.some((x) => typeof x === 'string' && x.trim() !== '') : false;

/** Throws 400 (honeypot) or 429 (rate limit) with the plain words above; returns when the post may go on. */
export async function checkNoScriptPost(app: FastifyInstance, req: FastifyRequest, honeypot: unknown): Promise<void> {
  if (filled(honeypot)) throw new HttpError(400, NO_SCRIPT_MESSAGES.HONEYPOT);
  await app.services.rateLimiter.check(NO_SCRIPT_LIMIT, req.ip);
}

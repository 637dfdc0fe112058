/**
 * The browser side of the restock form's captcha (action 'product-waitlist'). With the self-hosted
 * altcha provider the token is a solved proof-of-work challenge, made when the visitor submits; with
 * reCAPTCHA v3 or Enterprise it comes from the vendor script's execute(); with v2 from the checkbox
 * widget drawn into the form's captcha container.
 */
import { solveChallenge } from 'altcha-lib/v1';
import { captchaResponseIn, destroyCaptchaIn, loadCaptcha, renderCaptcha, resetCaptchaIn } from '../client/captcha.js';
import type { RestockCaptchaConfig } from '../../core/api/restock.js';
export type { RestockCaptchaConfig };

/** Draws the v2 checkbox into the container (marked, with its widget id); other kinds draw nothing. */
export async function mountCaptcha(config: RestockCaptchaConfig, el: HTMLElement): Promise<number | null> {
  if (config.kind !== 'recaptcha-v2') return null;
  return renderCaptcha(config, el);
}

/** Resets the v2 checkbox after a failed submission (the other kinds make a fresh token per submit). */
export function resetCaptcha(config: RestockCaptchaConfig | null, el: HTMLElement | null): void {
  if (config?.kind === 'recaptcha-v2') resetCaptchaIn(config, el);
}

/** Removes the v2 checkbox (after a successful sign-up, or when the form goes). */
export function destroyCaptcha(config: RestockCaptchaConfig | null, el: HTMLElement | null): void {
  if (config?.kind === 'recaptcha-v2') destroyCaptchaIn(config, el);
}

/** A token for one submission, or null when the visitor has not completed the captcha (v2). */
export async function captchaToken(config: RestockCaptchaConfig, el: HTMLElement | null): Promise<string | null> {
  if (config.kind === 'altcha') {
    const res = await fetch(config.challengeUrl ?? '/api/captcha/challenge?action=product-waitlist', {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new Error('captcha challenge unavailable');
    const c = (await res.json()) as {
      algorithm: string;
      challenge: string;
      salt: string;
      signature: string;
      maxnumber?: number;
      maxNumber?: number;
    };
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber ?? c.maxNumber).promise;
    if (!solution) throw new Error('captcha not solved');
    const payload = {
      algorithm: c.algorithm,
      challenge: c.challenge,
      number: solution.number,
      salt: c.salt,
      signature: c.signature,
      took: solution.took,
    };
    return btoa(JSON.stringify(payload));
  }
  const g = await loadCaptcha(config);
  if (config.kind === 'recaptcha-v2') return captchaResponseIn(config, el);
  return g.execute(config.siteKey ?? '', { action: config.vendorAction });
}

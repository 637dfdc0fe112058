/**
 * The browser side of the restock form's captcha (action 'product-waitlist'). With the self-hosted
 * altcha provider the token is a solved proof-of-work challenge, made when the visitor submits; with
 * reCAPTCHA v3 or Enterprise it comes from the vendor script's execute(); with v2 from the checkbox
 * widget drawn into the form's captcha container.
 */
import { solveChallenge } from 'altcha-lib/v1';

/** What the server tells the browser about the site's captcha (never a secret). */
export interface RestockCaptchaConfig {
  kind: 'altcha' | 'recaptcha-v2' | 'recaptcha-v3' | 'recaptcha-enterprise';
  action: string;
  vendorAction: string;
  challengeUrl?: string;
  siteKey?: string;
  theme: 'light' | 'dark';
  size: 'normal' | 'compact' | 'invisible';
}

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, opts: { action: string }): Promise<string>;
  render(el: HTMLElement, opts: Record<string, unknown>): number;
  reset(id?: number): void;
  getResponse(id?: number): string;
  enterprise?: Grecaptcha;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const scripts = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let p = scripts.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        scripts.delete(src);
        reject(new Error('captcha script failed to load'));
      };
      document.head.appendChild(s);
    });
    scripts.set(src, p);
  }
  return p;
}

async function vendor(config: RestockCaptchaConfig): Promise<Grecaptcha> {
  const enterprise = config.kind === 'recaptcha-enterprise';
  const render = config.kind === 'recaptcha-v2' ? 'explicit' : encodeURIComponent(config.siteKey ?? '');
  await loadScript(`https://www.google.com/recaptcha/${enterprise ? 'enterprise' : 'api'}.js?render=${render}`);
  const g = enterprise ? window.grecaptcha?.enterprise : window.grecaptcha;
  if (!g) throw new Error('captcha unavailable');
  await new Promise<void>((r) => g.ready(r));
  return g;
}

/** Draws the v2 checkbox into the container; returns its widget id (other kinds draw nothing). */
export async function mountCaptcha(config: RestockCaptchaConfig, el: HTMLElement): Promise<number | null> {
  if (config.kind !== 'recaptcha-v2') return null;
  const g = await vendor(config);
  return g.render(el, { sitekey: config.siteKey, theme: config.theme, size: config.size });
}

/** Resets the v2 checkbox after a failed submission (the other kinds make a fresh token per submit). */
export function resetCaptcha(config: RestockCaptchaConfig | null, widgetId: number | null): void {
  if (config?.kind === 'recaptcha-v2' && widgetId !== null) window.grecaptcha?.reset(widgetId);
}

/** A token for one submission, or null when the visitor has not completed the captcha (v2). */
export async function captchaToken(config: RestockCaptchaConfig, widgetId: number | null): Promise<string | null> {
  if (config.kind === 'altcha') {
    const res = await fetch(config.challengeUrl ?? '/api/captcha/challenge?action=product-waitlist', { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error('captcha challenge unavailable');
    const c = (await res.json()) as { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number; maxNumber?: number };
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber ?? c.maxNumber).promise;
    if (!solution) throw new Error('captcha not solved');
    const payload = { algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature, took: solution.took };
    return btoa(JSON.stringify(payload));
  }
  const g = await vendor(config);
  if (config.kind === 'recaptcha-v2') {
    const t = g.getResponse(widgetId ?? undefined);
    return t || null;
  }
  return g.execute(config.siteKey ?? '', { action: config.vendorAction });
}

/**
 * The vendor captcha (reCAPTCHA v2, v3, Enterprise) in the browser, shared by every form that uses it
 * (form block, newsletter, restock, promo popup):
 * - the script is loaded once, from the vendor's host, with an onload callback;
 * - widgets are rendered into containers; a rendered container is marked (`data-captcha-rendered`) and
 *   carries its widget id (`data-captcha-widget-id`); it can be reset or destroyed;
 * - the widget is compact when its container is narrower than 320 px, else the owner's size (normal or
 *   compact) and theme (light or dark);
 * - failures are logged through the error reporter: 'ReCaptcha has not been set up!' (the script ran but
 *   no captcha API is there), 'Error rendering captcha into node' (an invalid or already-rendered node,
 *   or the vendor refusing to render), 'Document was destroyed' (the script failed to load).
 */
import { platform } from '../../core/messages.js';
import { CAPTCHA_COMPACT_BELOW_PX, CAPTCHA_DEFAULT_SIZE, CAPTCHA_DEFAULT_THEME } from '../../core/constants.js';
import { reportError } from './error-reporter.js';

export interface VendorCaptchaConfig {
  kind: 'altcha' | 'recaptcha-v2' | 'recaptcha-v3' | 'recaptcha-enterprise';
  siteKey?: string;
  theme?: 'light' | 'dark';
  size?: 'normal' | 'compact' | 'invisible';
}

export interface Grecaptcha {
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

/** The global the vendor script calls once it is ready (its `onload` parameter). */
export const CAPTCHA_ONLOAD_CALLBACK = 'tesseraCaptchaLoaded';
export const RENDERED_ATTR = 'data-captcha-rendered';
export const WIDGET_ID_ATTR = 'data-captcha-widget-id';

const loads = new Map<string, Promise<Grecaptcha>>();

function scriptUrl(cfg: VendorCaptchaConfig): string {
  const enterprise = cfg.kind === 'recaptcha-enterprise';
  const render = cfg.kind === 'recaptcha-v2' ? 'explicit' : encodeURIComponent(cfg.siteKey ?? '');
  return `https://www.google.com/recaptcha/${enterprise ? 'enterprise' : 'api'}.js?onload=${CAPTCHA_ONLOAD_CALLBACK}&render=${render}`;
}

function vendorApi(cfg: VendorCaptchaConfig): Grecaptcha | undefined {
  return cfg.kind === 'recaptcha-enterprise' ? window.grecaptcha?.enterprise : window.grecaptcha;
}

/** Loads the vendor script once per URL; resolves to its API once it is ready. */
export function loadCaptcha(cfg: VendorCaptchaConfig): Promise<Grecaptcha> {
  const src = scriptUrl(cfg);
  let p = loads.get(src);
  if (p) return p;
  p = new Promise<Grecaptcha>((resolve, reject) => {
    let done = false;
    const ready = () => {
      if (done) return;
      const g = vendorApi(cfg);
      if (!g) {
        done = true;
        reportError(new Error(platform.RECAPTCHA_NOT_SET_UP));
        reject(new Error(platform.RECAPTCHA_NOT_SET_UP));
        return;
      }
      done = true;
      g.ready(() => resolve(g));
    };
    (window as unknown as Record<string, unknown>)[CAPTCHA_ONLOAD_CALLBACK] = ready;
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    s.defer = true;
    // The vendor calls the onload callback when it is ready; a script that ran without calling it (or
    // without defining the API) is checked once it has loaded.
    s.onload = () => ready();
    s.onerror = () => {
      loads.delete(src);
      done = true;
      reportError(new Error(platform.DOCUMENT_DESTROYED));
      reject(new Error(platform.DOCUMENT_DESTROYED));
    };
    document.head.appendChild(s);
  });
  p.catch(() => undefined);
  loads.set(src, p);
  return p;
}

/** The size to draw: compact in a container narrower than 320 px, else the owner's choice (normal by default). */
export function captchaSize(cfg: VendorCaptchaConfig, containerWidth: number): 'normal' | 'compact' | 'invisible' {
  const size = cfg.size ?? CAPTCHA_DEFAULT_SIZE;
  if (size === 'invisible') return size;
  return containerWidth > 0 && containerWidth < CAPTCHA_COMPACT_BELOW_PX ? 'compact' : size;
}

function renderError(detail?: unknown): Error {
  const err = new Error(platform.CAPTCHA_RENDER_ERROR);
  if (detail !== undefined) (err as Error & { cause?: unknown }).cause = detail;
  reportError(err);
  return err;
}

/** The width the widget can take: the container's, or (an empty container in a flex row is 0 wide) its nearest sized ancestor's. */
function availableWidth(el: HTMLElement): number {
  for (let n: HTMLElement | null = el; n; n = n.parentElement) {
    const w = n.getBoundingClientRect().width;
    if (w > 0) return w;
  }
  return 0;
}

/** The widget id of a rendered container, or null. */
export function widgetIdOf(el: HTMLElement | null): number | null {
  const v = el?.getAttribute(WIDGET_ID_ATTR);
  return v === null || v === undefined || v === '' ? null : Number(v);
}

/**
 * Renders the checkbox (v2) into `el`, marks the container and gives it the widget id. An invalid node
 * (missing or not in the document), one already rendered, or a vendor refusal is reported and rejected.
 */
export async function renderCaptcha(
  cfg: VendorCaptchaConfig,
  el: HTMLElement | null,
  callbacks: { callback?: () => void; expired?: () => void } = {},
): Promise<number> {
  if (!el || !(el instanceof HTMLElement) || !el.isConnected || el.hasAttribute(RENDERED_ATTR)) throw renderError();
  const g = await loadCaptcha(cfg);
  if (!el.isConnected || el.hasAttribute(RENDERED_ATTR)) throw renderError();
  let id: number;
  try {
    id = g.render(el, {
      sitekey: cfg.siteKey ?? '',
      theme: cfg.theme ?? CAPTCHA_DEFAULT_THEME,
      size: captchaSize(cfg, availableWidth(el)),
      callback: callbacks.callback,
      'expired-callback': callbacks.expired,
    });
  } catch (e) {
    throw renderError(e);
  }
  el.setAttribute(RENDERED_ATTR, '');
  el.setAttribute(WIDGET_ID_ATTR, String(id));
  return id;
}

/** Clears the answer of the widget in `el` (after a failed submission). */
export function resetCaptchaIn(cfg: VendorCaptchaConfig, el: HTMLElement | null): void {
  const id = widgetIdOf(el);
  if (id === null) return;
  vendorApi(cfg)?.reset(id);
}

/** The answer of the widget in `el`, or null when the visitor has not completed it. */
export function captchaResponseIn(cfg: VendorCaptchaConfig, el: HTMLElement | null): string | null {
  const id = widgetIdOf(el);
  if (id === null) return null;
  return vendorApi(cfg)?.getResponse(id) || null;
}

/** Removes the widget from `el` and its markers, so the container can be rendered into again. */
export function destroyCaptchaIn(cfg: VendorCaptchaConfig, el: HTMLElement | null): void {
  if (!el) return;
  const id = widgetIdOf(el);
  if (id !== null) {
    try {
      vendorApi(cfg)?.reset(id);
    } catch {
      /* the widget is going anyway */
    }
  }
  el.replaceChildren();
  el.removeAttribute(RENDERED_ATTR);
  el.removeAttribute(WIDGET_ID_ATTR);
}

/**
 * The analytics client API for every area of the public pages:
 *
 *   track('add_to_cart', { item_id, ... })     a shopper (or any) event, with the cart fields added
 *   trackPaywall('video_join_click', {...})   a video paywall event
 *   setConsent(true | false)                  the visitor's cookie decision (or dispatch 'tessera:consent')
 *
 * `startAnalytics()` (called once by the site bundle) reads the page's data island and, on tracked
 * pages only, starts the tracker, the error reporter and the performance collector. Cart, form,
 * restock and order calls made through fetch are observed, so those shopper events need no wiring.
 * Nothing here ever throws into the page or delays it.
 */
import { readPageData, type PageData } from './analytics-page.js';
import { startErrorReporter } from './error-reporter.js';
import type { Tracker, PaywallEvent, ShopperEvent } from './tracker.js';
import { CONSENT_COOKIE } from '../../core/cookies.js';

let tracker: Tracker | null = null;
let started = false;
/** Set when this page collects nothing (not tracked, or the tracker failed to load). */
let disabled = false;
const early: Array<(t: Tracker) => void> = [];

function withTracker(fn: (t: Tracker) => void) {
  try {
    if (tracker) fn(tracker);
    else if (!disabled && early.length < 50) early.push(fn);
  } catch {
    /* analytics never breaks the page */
  }
}

/** Records an event through the newer pipeline; shopper events get the cart fields. */
export function track(name: ShopperEvent | (string & {}), fields: Record<string, unknown> = {}): void {
  withTracker((t) => t.shopper(name as ShopperEvent, fields));
}

export function trackPaywall(
  name: PaywallEvent,
  fields: { content_collection_id: string | null; content_item_id: string | null; viewer_access_status: string },
): void {
  withTracker((t) => t.paywall(name, fields));
}

/** The older pipeline (RecordEvent). */
export function recordEvent(event: string, data: Record<string, unknown> = {}): void {
  withTracker((t) => t.recordEvent(event, data));
}

export function setConsent(granted: boolean): void {
  withTracker((t) => t.decide(granted));
}

/** POST /api/census/overlay when a popup overlay opens (the promo popup, whatever its trigger). */
export function overlayOpened(overlayId: string): void {
  withTracker((t) => t.census('overlay', /^[A-Za-z0-9_.:-]{1,64}$/.test(overlayId) ? { overlayId } : {}));
}

/** Tells the tracker about the current cart (for the cart fields of later events). */
export function setCart(cart: unknown): void {
  withTracker((t) => {
    if (cart && typeof cart === 'object') t.cart = cart as Tracker['cart'];
  });
}

function consentCookie(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === CONSENT_COOKIE) return part.slice(i + 1).trim();
  }
  return undefined;
}

const consentGranted = () => consentCookie() === 'granted';

/**
 * Starts what a tracked page collects: the error reporter at once (so early errors are caught), the
 * tracker and the performance collector once the page has loaded and the browser is idle, from a
 * separate chunk. Safe to call more than once.
 */
export function startAnalytics(page: PageData | null = readPageData()): void {
  if (started) return;
  started = true;
  try {
    if (!page || !page.track) {
      disabled = true;
      early.length = 0;
      return;
    }
    // Under an opt-in cookie banner ('ask'), nothing is collected or sent before the visitor agrees,
    // and nothing at all after a refusal (the banner clears the census cookies).
    if (page.cookiePolicy === 'ask' && !consentGranted()) {
      if (consentCookie() === 'denied') {
        disabled = true;
        early.length = 0;
        return;
      }
      document.addEventListener(
        'tessera:consent',
        (ev) => {
          if ((ev as CustomEvent<{ granted?: boolean }>).detail?.granted === true) begin(page);
          else {
            disabled = true;
            early.length = 0;
          }
        },
        { once: true },
      );
      return;
    }
    begin(page);
  } catch {
    /* analytics never breaks the page */
  }
}

function begin(page: PageData): void {
  try {
    startErrorReporter(page);
    const go = () =>
      import('./analytics-lazy.js').then(
        (m) => {
          tracker = m.startTracker(page);
          for (const fn of early.splice(0)) withTracker(fn);
        },
        () => {
          disabled = true;
          early.length = 0;
        },
      );
    const idle = () =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(() => void go(), { timeout: 1000 }) : setTimeout(() => void go(), 1);
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  } catch {
    /* analytics never breaks the page */
  }
}

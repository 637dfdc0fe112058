/**
 * The part of analytics loaded after the page is ready (a separate chunk): the tracker with its
 * census calls and event pipelines, the observers of the page's own calls and clicks, and the
 * performance collector with web-vitals. Nothing here runs before the page has loaded.
 */
import type { PageData } from './analytics-page.js';
import { startPerformanceCollector } from './performance.js';
import { documentJar } from './tracker-cookies.js';
import { Tracker } from './tracker.js';
import { cartStore } from './cart-store.js';
import { experimentTags, readFlags, settleExperiments } from './flags.js';
import { maybeStartRecording, scriptLoader } from './session-recording.js';

function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

function islandProps(name: string): Record<string, unknown> | null {
  const el = document.querySelector<HTMLElement>(`[data-island="${name}"]`);
  if (!el?.dataset.props) return null;
  try {
    return JSON.parse(el.dataset.props) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const ENTRIES = /^\/api\/commerce\/shopping-cart\/entries(?:\/([^/?]+))?\/?(?:\?|$)/;

/** Watches the page's own cart, form, restock and order calls and turns their answers into shopper events. */
function observeCalls(t: Tracker) {
  const original = window.fetch;
  if (typeof original !== 'function') return;
  const observed = async (res: Response, method: string, path: string, body: unknown) => {
    if (!res.ok) return;
    const m = ENTRIES.exec(path);
    if (!m && !/^\/api\/(form\/SaveFormSubmission|site-users\/account\/notifications\/restock|checkout\/place-order)\/?$/.test(path))
      return;
    const data = (await res
      .clone()
      .json()
      .catch(() => ({}))) as Record<string, unknown>;
    const before = t.cart;
    if (data.shoppingCart && typeof data.shoppingCart === 'object') t.cart = data.shoppingCart as Tracker['cart'];
    const sent = typeof body === 'string' ? (JSON.parse(body || '{}') as Record<string, unknown>) : {};
    if (m && method === 'POST' && !m[1]) {
      const e = (data.newlyAdded ?? {}) as Record<string, unknown>;
      t.shopper('add_to_cart', {
        item_id: e.itemId ?? sent.itemId ?? null,
        item_title: e.title ?? null,
        item_price: e.purchasePriceCents ?? null,
        item_quantity: sent.quantity ?? e.quantity ?? null,
        item_type: e.productType ?? null,
      });
    } else if (m && method === 'DELETE' && m[1]) {
      const id = decodeURIComponent(m[1]);
      const e = ((data.removedEntry as Record<string, unknown>) ??
        (before?.entries as Array<Record<string, unknown>> | undefined)?.find((x) => x.id === id) ??
        {}) as Record<string, unknown>;
      const variant = (e.chosenVariant as { attributes?: Record<string, string> } | undefined)?.attributes ?? null;
      t.shopper('remove_from_cart', {
        item_id: e.itemId ?? null,
        item_type: e.productType ?? null,
        item_title: e.title ?? null,
        item_variant_object: variant,
        item_price: e.purchasePriceCents ?? null,
        item_quantity: e.quantity ?? null,
      });
    } else if (path.startsWith('/api/form/')) {
      t.shopper('form_submit', { form_id: typeof sent.formId === 'string' ? sent.formId : null });
    } else if (path.startsWith('/api/site-users/')) {
      t.shopper('restock_signup', { item_id: typeof sent.productId === 'string' ? sent.productId : null });
    } else if (path.startsWith('/api/checkout/') && data.status === 'paid' && data.duplicate !== true) {
      const pc = (data.purchaseConfirmation ?? {}) as { id?: string; grandTotal?: { value?: string; currency?: string } };
      t.event('order_placed', {
        order_id: pc.id ?? null,
        cart_value: Math.max(0, Number(pc.grandTotal?.value) || 0),
        currency_code: pc.grandTotal?.currency ?? 'USD',
      });
    }
  };
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const p = original.call(this, input, init);
    try {
      const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, location.href);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      if (
        url.origin === location.origin &&
        method !== 'GET' &&
        url.pathname.startsWith('/api/') &&
        !url.pathname.startsWith('/api/census') &&
        !url.pathname.startsWith('/api/v1/') &&
        !url.pathname.startsWith('/api/events/')
      ) {
        p.then(
          (res) => observed(res, method, url.pathname, init?.body).catch(() => {}),
          () => {},
        );
      }
    } catch {
      /* not ours to observe */
    }
    return p;
  };
}

/** The page fields of a rendered form (its island's props): pageTitle, pageId, contentSource, pagePath, pagePermissionTypeValue. */
function formPageFields(el: HTMLElement): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  try {
    const raw = el.closest<HTMLElement>('[data-island="Form"]')?.dataset.props;
    const page = raw ? ((JSON.parse(raw) as { page?: Record<string, unknown> }).page ?? {}) : {};
    for (const [k, n] of [
      ['pageTitle', 300],
      ['pageId', 64],
      ['pagePath', 2048],
    ] as const)
      if (typeof page[k] === 'string') out[k] = (page[k] as string).slice(0, n);
    if (page.contentSource === 'i' || page.contentSource === 'c') out.contentSource = page.contentSource;
    const perm = page.pagePermissionTypeValue;
    if (typeof perm === 'number' || (typeof perm === 'string' && /^\d{1,20}$/.test(perm))) out.pagePermissionTypeValue = perm;
  } catch {
    /* a form without readable props sends its id alone */
  }
  return out;
}

/** Census calls for buttons, forms, overlays and quick views, and the related-product and review clicks. */
function observeDom(t: Tracker) {
  const buttons = '.sqs-block-button-element, [data-analytics-button]';
  document.querySelectorAll<HTMLElement>(buttons).forEach((b, i) => {
    if (i < 10)
      t.census('button-render', {
        buttonText: (b.textContent ?? '').trim().slice(0, 200),
        buttonUrl: (b.getAttribute('href') ?? '').slice(0, 2048),
      });
  });
  document.querySelectorAll<HTMLElement>('[data-form-id]').forEach((f, i) => {
    const formId = f.dataset.formId ?? '';
    if (i < 10 && /^[A-Za-z0-9_.:-]{1,64}$/.test(formId)) t.census('form-render', { formId, ...formPageFields(f) });
  });
  const overlay = document.querySelector<HTMLElement>('[data-popup-overlay]');
  if (overlay)
    t.census(
      'overlay',
      /^[A-Za-z0-9_.:-]{1,64}$/.test(overlay.dataset.popupOverlay ?? '') ? { overlayId: overlay.dataset.popupOverlay } : {},
    );
  const related = document.querySelector('[data-related-products], .related-products');
  if (related) t.shopper('related_product_display');

  document.addEventListener(
    'click',
    (ev) => {
      const el = ev.target instanceof Element ? ev.target : null;
      if (!el) return;
      const button = el.closest<HTMLElement>(buttons);
      if (button)
        t.census('button-click', {
          buttonText: (button.textContent ?? '').trim().slice(0, 200),
          buttonUrl: (button.getAttribute('href') ?? '').slice(0, 2048),
        });
      const quick = el.closest<HTMLElement>('.sqs-product-quick-view-button[data-id]');
      if (quick?.dataset.id && /^[A-Za-z0-9_.:-]{1,64}$/.test(quick.dataset.id)) t.census(`RecordQuickView/${quick.dataset.id}`);
      const rel = el.closest('[data-related-products], .related-products');
      if (rel) {
        const item = el.closest<HTMLElement>('[data-item-id]')?.dataset.itemId ?? null;
        const link = el.closest('a');
        if (el.closest('button, [role="button"]')) t.shopper('related_product_add', { item_id: item });
        else if (link) t.shopper('related_product_click', { item_id: item, destination_url: link.href.slice(0, 2048) });
      }
      const a = el.closest('a');
      if (el.closest('[data-reviews-tab]')) t.shopper('reviews_tab_click');
      else if (a && /^#reviews?\b/.test(a.getAttribute('href') ?? ''))
        t.shopper('reviews_anchor_click', { destination_url: a.href.slice(0, 2048) });
    },
    { capture: true, passive: true },
  );
}

/** Builds and starts the tracker of a tracked page. */
export function startTracker(page: PageData): Tracker {
  startPerformanceCollector();
  // Experiments and the analytics options from the flags island (server/flags).
  const flags = readFlags();
  let tags: string[] = [];
  const t = new Tracker({
    options: flags?.analytics,
    experiments: () => tags,
    warn: (message, detail) => console.warn(message, detail ?? ''),
    page,
    jar: documentJar(),
    local: safeStorage('localStorage'),
    session: safeStorage('sessionStorage'),
    now: () => Date.now(),
    random: () => Math.random(),
    beacon: (url, body) => typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body),
    fetch: window.fetch.bind(window),
    location: window.location,
    document: { title: document.title, referrer: document.referrer, lang: document.documentElement.lang },
    browser: {
      userAgent: navigator.userAgent,
      language: navigator.language,
      locale: Intl.DateTimeFormat().resolvedOptions().locale,
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
      screenWidth: window.screen?.width ?? 0,
      screenHeight: window.screen?.height ?? 0,
    },
  });
  if (flags) {
    const variants = settleExperiments(flags, {
      visitorId: t.visitor?.visitorId ?? null,
      search: window.location.search,
      local: safeStorage('localStorage'),
    });
    tags = experimentTags(variants);
    void maybeStartRecording(flags, variants, {
      fetch: window.fetch.bind(window),
      hardwareThreads: navigator.hardwareConcurrency,
      load: scriptLoader(),
    });
  }
  const cartPage = islandProps('CartPage');
  const pill = islandProps('CartPill');
  t.cart = (cartPage?.cart as Tracker['cart']) ?? (pill ? { totalQuantity: Number(pill.totalQuantity) || 0 } : null);
  // A visitor with a cart (the pill says so) but no cart on the page: the events sent at page load wait for
  // the cart, so they carry its fields (cart id, value, currency, product and purchase types). The page's one
  // cart store gives it: the cart the pill already read, or the pill's read under way (never a second read).
  const cartRead: Promise<unknown> =
    !cartPage?.cart && pill?.hasCart === true
      ? (cartStore.get() ? Promise.resolve(cartStore.get()) : cartStore.refresh()).then(
          (cart: unknown) => {
            if (cart && typeof cart === 'object' && !Array.isArray(cart)) t.cart = cart as Tracker['cart'];
          },
          () => {},
        )
      : Promise.resolve();
  observeCalls(t);
  document.addEventListener('tessera:consent', (ev) => t.decide((ev as CustomEvent<{ granted?: boolean }>).detail?.granted === true));
  t.pageView();
  void cartRead.then(() => {
    t.pageEvents();
    observeDom(t);
  });
  const leave = () => void t.flush();
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });
  return t;
}

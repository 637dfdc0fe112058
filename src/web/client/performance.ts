/**
 * The performance collector: web vitals (FCP, LCP, CLS, INP, TTFB from
 * the web-vitals library, FID from the first-input entry where the browser has it) are kept as
 * records {app, data, event, pageLoadId, ts} and sent as a text body holding a JSON array to
 * POST /api/1/performance/records by beacon (a keepalive request without beacons), 30 s after load
 * or as soon as the page is hidden, whichever comes first; later values go in a later flush.
 *
 * Page speed: the collector waits for the page to settle (its load event) for at most
 * PAGE_SPEED_MAX_WAIT_MS (60 s) before it starts the 30 s flush timer: a page
 * whose load event never comes (a hung image or script) still sends its vitals, 60 + 30 s in.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { PAGE_SPEED_MAX_WAIT_MS, PERFORMANCE_FLUSH_AFTER_LOAD_MS } from '../../core/constants.js';

export const PERFORMANCE_URL = '/api/1/performance/records';
const APP = 'tessera-site';

export interface PerformanceRecord {
  app: string;
  event: string;
  pageLoadId: string;
  ts: number;
  data: { name: string; value: number; rating?: string; id?: string; navigationType?: string; path?: string };
}

export class PerformanceBuffer {
  private records = new Map<string, PerformanceRecord>();

  constructor(
    readonly pageLoadId: string,
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the latest value of each metric (CLS and INP are updated as the page lives). */
  add(name: string, value: number, extra: { rating?: string; id?: string; navigationType?: string } = {}): void {
    if (!Number.isFinite(value) || value < 0) return;
    this.records.set(name, {
      app: APP,
      event: 'web-vitals',
      pageLoadId: this.pageLoadId,
      ts: this.now(),
      data: { name, value: Math.round(value * 10000) / 10000, path: this.path, ...extra },
    });
  }

  /** The records gathered since the last take. */
  take(): PerformanceRecord[] {
    const out = [...this.records.values()];
    this.records.clear();
    return out;
  }
}

/** What the page-speed wait needs of the browser (a seam so the wait can be observed without one). */
export interface SettleHost {
  readyState(): string;
  onLoad(fn: () => void): () => void;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Milliseconds since navigation start. */
  elapsed(): number;
}

/**
 * Waits for the page to settle (load event) for at most `maxWaitMs`, then calls `done` once with the
 * load time in ms and whether the wait ran out. A page already loaded settles at once.
 */
export function waitForPageSpeed(
  host: SettleHost,
  done: (loadMs: number, timedOut: boolean) => void,
  maxWaitMs: number = PAGE_SPEED_MAX_WAIT_MS,
): void {
  if (host.readyState() === 'complete') {
    done(host.elapsed(), false);
    return;
  }
  let finished = false;
  const finish = (timedOut: boolean) => {
    if (finished) return;
    finished = true;
    stopListening();
    host.clearTimer(timer);
    done(timedOut ? maxWaitMs : host.elapsed(), timedOut);
  };
  const stopListening = host.onLoad(() => finish(false));
  const timer = host.setTimer(() => finish(true), Math.max(0, maxWaitMs - host.elapsed()));
}

function browserSettleHost(): SettleHost {
  return {
    readyState: () => document.readyState,
    onLoad: (fn) => {
      window.addEventListener('load', fn, { once: true });
      return () => window.removeEventListener('load', fn);
    },
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (h) => window.clearTimeout(h as number),
    elapsed: () => {
      const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
      return nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : performance.now();
    },
  };
}

function send(records: PerformanceRecord[]): void {
  if (records.length === 0) return;
  const body = JSON.stringify(records);
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(PERFORMANCE_URL, body)) return;
  } catch {
    /* fall through to a plain request */
  }
  fetch(PERFORMANCE_URL, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => {});
}

export function startPerformanceCollector(random: () => number = Math.random): void {
  const pageLoadId = Array.from({ length: 16 }, () => Math.floor(random() * 36).toString(36)).join('');
  const buf = new PerformanceBuffer(pageLoadId, location.pathname.slice(0, 2048));
  const record = (m: Metric) => buf.add(m.name, m.value, { rating: m.rating, id: m.id.slice(0, 100), navigationType: m.navigationType });
  onFCP(record);
  onLCP(record);
  onCLS(record);
  onINP(record);
  onTTFB(record);
  // FID: the delay of the first input, where the browser reports it.
  try {
    const po = new PerformanceObserver((list) => {
      const first = list.getEntries()[0] as PerformanceEventTiming | undefined;
      if (first) buf.add('FID', first.processingStart - first.startTime);
      po.disconnect();
    });
    po.observe({ type: 'first-input', buffered: true });
  } catch {
    /* no first-input timing in this browser */
  }

  const flush = () => send(buf.take());
  waitForPageSpeed(browserSettleHost(), () => {
    window.setTimeout(flush, PERFORMANCE_FLUSH_AFTER_LOAD_MS);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  window.addEventListener('pagehide', flush);
}

/**
 * The performance collector (platform.md sections 7 and 9): web vitals (FCP, LCP, CLS, INP, TTFB from
 * the web-vitals library, FID from the first-input entry where the browser has it) are kept as
 * records {app, data, event, pageLoadId, ts} and sent as a text body holding a JSON array to
 * POST /api/1/performance/records by beacon (a keepalive request without beacons), 30 s after load
 * or as soon as the page is hidden, whichever comes first; later values go in a later flush.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { PERFORMANCE_FLUSH_AFTER_LOAD_MS } from '../../core/constants.js';

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
    this.records.set(name, { app: APP, event: 'web-vitals', pageLoadId: this.pageLoadId, ts: this.now(), data: { name, value: Math.round(value * 10000) / 10000, path: this.path, ...extra } });
  }

  /** The records gathered since the last take. */
  take(): PerformanceRecord[] {
    const out = [...this.records.values()];
    this.records.clear();
    return out;
  }
}

function send(records: PerformanceRecord[]): void {
  if (records.length === 0) return;
  const body = JSON.stringify(records);
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(PERFORMANCE_URL, body)) return;
  } catch {
    /* fall through to a plain request */
  }
  fetch(PERFORMANCE_URL, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' }, keepalive: true, credentials: 'same-origin' }).catch(() => {});
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
  const armTimer = () => window.setTimeout(flush, PERFORMANCE_FLUSH_AFTER_LOAD_MS);
  if (document.readyState === 'complete') armTimer();
  else window.addEventListener('load', armTimer, { once: true });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  window.addEventListener('pagehide', flush);
}

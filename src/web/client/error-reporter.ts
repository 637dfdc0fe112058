/**
 * The error reporter: uncaught errors and unhandled rejections are
 * queued (at most 10 waiting), sent together 1 s after the last one (debounce) to
 * POST /api/events/RecordJavascriptErrors as a JSON list with the CSRF header, at most 20 sends per
 * page, each with website id, template id, URL and browser; stacks are cut at 5000 characters.
 * A failed send is dropped: reporting must never disturb the page.
 */
import {
  ERROR_REPORTER_DEBOUNCE_MS,
  ERROR_REPORTER_MAX_QUEUED,
  ERROR_REPORTER_MAX_SENDS,
  ERROR_REPORTER_MAX_STACK_CHARS,
} from '../../core/constants.js';

export const ERRORS_URL = '/api/events/RecordJavascriptErrors';

export interface ErrorEvent_ {
  message: string;
  stack?: string;
  url: string;
  websiteId: string;
  templateId: string;
  browser: string;
  kind: 'error' | 'unhandledrejection';
  source?: string;
  line?: number;
  column?: number;
  ts: number;
}

export interface ReporterDeps {
  send(events: ErrorEvent_[], leaving: boolean): void | Promise<unknown>;
  context(): { url: string; websiteId: string; templateId: string; browser: string };
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export class ErrorReporter {
  private queue: ErrorEvent_[] = [];
  private timer: unknown = null;
  sends = 0;
  dropped = 0;

  constructor(private readonly deps: ReporterDeps) {}

  /** Queues one error; false when it was dropped (queue full or send budget spent). */
  report(err: unknown, kind: ErrorEvent_['kind'] = 'error', where: { source?: string; line?: number; column?: number } = {}): boolean {
    if (this.sends >= ERROR_REPORTER_MAX_SENDS || this.queue.length >= ERROR_REPORTER_MAX_QUEUED) {
      this.dropped += 1;
      return false;
    }
    const e = err as { message?: unknown; stack?: unknown } | null;
    const message =
      (e && typeof e.message === 'string' && e.message) || (typeof err === 'string' ? err : '') || String(err ?? 'Unknown error');
    const stack = e && typeof e.stack === 'string' ? e.stack.slice(0, ERROR_REPORTER_MAX_STACK_CHARS) : undefined;
    const ctx = this.deps.context();
    const event: ErrorEvent_ = {
      message: message.slice(0, 2000) || 'Unknown error',
      url: ctx.url.slice(0, 2048),
      websiteId: ctx.websiteId,
      templateId: ctx.templateId,
      browser: ctx.browser.slice(0, 512),
      kind,
      ts: this.deps.now(),
    };
    if (stack) event.stack = stack;
    if (where.source) event.source = where.source.slice(0, 2048);
    if (typeof where.line === 'number' && where.line >= 0) event.line = Math.floor(where.line);
    if (typeof where.column === 'number' && where.column >= 0) event.column = Math.floor(where.column);
    this.queue.push(event);
    if (this.timer !== null) this.deps.clearTimeout(this.timer);
    this.timer = this.deps.setTimeout(() => this.flush(false), ERROR_REPORTER_DEBOUNCE_MS);
    return true;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Sends what is queued now (the debounce fired, or the page is being left). */
  flush(leaving: boolean): void {
    if (this.timer !== null) this.deps.clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0 || this.sends >= ERROR_REPORTER_MAX_SENDS) return;
    const batch = this.queue;
    this.queue = [];
    this.sends += 1;
    try {
      const p = this.deps.send(batch, leaving);
      if (p && typeof (p as Promise<unknown>).catch === 'function') (p as Promise<unknown>).catch(() => {});
    } catch {
      /* never disturb the page */
    }
  }
}

function crumb(): string | undefined {
  const m = /(?:^|;\s*)crumb=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : undefined;
}

let active: ErrorReporter | null = null;

/**
 * Logs an error the page caught itself (a captcha that failed, an island that crashed): to the console,
 * and through the error reporter when the page runs one (tracked pages).
 */
export function reportError(err: unknown): void {
  try {
    console.error('tessera:', err instanceof Error ? err.message : err);
    active?.report(err, 'error');
  } catch {
    /* reporting must never disturb the page */
  }
}

/** Installs the reporter on the window for a tracked page. */
export function startErrorReporter(page: { websiteId: string; templateId: string }): ErrorReporter {
  const reporter = new ErrorReporter({
    send: (events) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const c = crumb();
      if (c) headers['x-csrf-token'] = c;
      return fetch(ERRORS_URL, { method: 'POST', headers, body: JSON.stringify(events), credentials: 'same-origin', keepalive: true });
    },
    context: () => ({ url: location.href, websiteId: page.websiteId, templateId: page.templateId, browser: navigator.userAgent }),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => Date.now(),
  });
  window.addEventListener('error', (ev: ErrorEvent) => {
    // Resource load errors (img, script) reach here without an error object or message: not JS errors.
    if (!ev.error && !ev.message) return;
    reporter.report(ev.error ?? ev.message, 'error', { source: ev.filename, line: ev.lineno, column: ev.colno });
  });
  window.addEventListener('unhandledrejection', (ev: PromiseRejectionEvent) => reporter.report(ev.reason, 'unhandledrejection'));
  window.addEventListener('pagehide', () => reporter.flush(true));
  active = reporter;
  return reporter;
}

/**
 * The provider's static information modal (static HTML from the instalment provider, by
 * locale; a load failure is only logged). The browser never calls the provider:
 * it asks our route, which fetches through a ModalSource with a short time-out and remembers the answer
 * for a while. When the provider cannot be reached (always the case on a closed network) the route answers
 * `source: 'local'` and the island shows our local version of the same information.
 */
import { instalmentBrand, INSTALMENT_LOCALES, type InstalmentBrand, type InstalmentLocale } from '../../core/instalments.js';

/** Where the provider's modal HTML comes from. */
export interface ModalSource {
  /** The modal HTML for a locale; rejects when it cannot be loaded. */
  load(locale: InstalmentLocale, brand: InstalmentBrand): Promise<string>;
}

export const MODAL_TIMEOUT_MS = 2000;
/** Largest modal accepted from the provider. */
export const MODAL_MAX_BYTES = 512 * 1024;

/** The providers' static modal pages, by brand. */
export const PROVIDER_MODAL_URLS: Readonly<Record<InstalmentBrand, (locale: string) => string>> = Object.freeze({
  afterpay: (locale: string) => `https://static.afterpay.com/modal/${locale}.html`,
  clearpay: (locale: string) => `https://static.clearpay.co.uk/modal/${locale}.html`,
});

/** Fetches the modal over HTTP with a time-out. */
export class HttpModalSource implements ModalSource {
  constructor(
    private readonly urlFor: (locale: InstalmentLocale, brand: InstalmentBrand) => string = (l, b) => PROVIDER_MODAL_URLS[b](l),
    private readonly timeoutMs = MODAL_TIMEOUT_MS,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async load(locale: InstalmentLocale, brand: InstalmentBrand): Promise<string> {
    const res = await this.fetchFn(this.urlFor(locale, brand), {
      signal: AbortSignal.timeout(this.timeoutMs),
      redirect: 'follow',
      headers: { accept: 'text/html' },
    });
    if (!res.ok) throw new Error(`The provider answered ${res.status}`);
    const type = res.headers.get('content-type') ?? '';
    if (type && !/text\/html/i.test(type)) throw new Error(`The provider answered ${type}, not HTML`);
    const html = await res.text();
    if (html.length > MODAL_MAX_BYTES) throw new Error('The provider modal is too large');
    if (!html.trim()) throw new Error('The provider modal is empty');
    return html;
  }
}

export interface ModalAnswer {
  locale: InstalmentLocale;
  brand: InstalmentBrand;
  /** 'provider': html holds the provider's page; 'local': show the local version. */
  source: 'provider' | 'local';
  html?: string;
}

export interface ModalLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Loads modals through a source, remembering successes for an hour and failures for five minutes. */
export class ModalService {
  static readonly SUCCESS_TTL_MS = 60 * 60 * 1000;
  static readonly FAILURE_TTL_MS = 5 * 60 * 1000;
  private readonly cache = new Map<string, { answer: ModalAnswer; until: number }>();
  private readonly pending = new Map<string, Promise<ModalAnswer>>();

  constructor(
    private source: ModalSource,
    private readonly log: ModalLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Swaps the source (and forgets what the old one answered). */
  useSource(source: ModalSource): void {
    this.source = source;
    this.cache.clear();
  }

  static isLocale(locale: string): locale is InstalmentLocale {
    return instalmentBrand(locale) !== null;
  }

  static readonly LOCALES: readonly InstalmentLocale[] = [...INSTALMENT_LOCALES.afterpay, ...INSTALMENT_LOCALES.clearpay];

  async modal(locale: InstalmentLocale): Promise<ModalAnswer> {
    const hit = this.cache.get(locale);
    if (hit && hit.until > this.now()) return hit.answer;
    let p = this.pending.get(locale);
    if (!p) {
      p = this.fetch(locale).finally(() => this.pending.delete(locale));
      this.pending.set(locale, p);
    }
    return p;
  }

  private async fetch(locale: InstalmentLocale): Promise<ModalAnswer> {
    const brand = instalmentBrand(locale) as InstalmentBrand;
    try {
      const html = await this.source.load(locale, brand);
      const answer: ModalAnswer = { locale, brand, source: 'provider', html };
      this.cache.set(locale, { answer, until: this.now() + ModalService.SUCCESS_TTL_MS });
      return answer;
    } catch (err) {
      // Only logged: the visitor sees the local version.
      this.log.warn(
        { event: 'instalment-modal-load-failed', locale, brand, err: err instanceof Error ? err.message : String(err) },
        'the instalment provider modal could not be loaded; the local version is shown',
      );
      const answer: ModalAnswer = { locale, brand, source: 'local' };
      this.cache.set(locale, { answer, until: this.now() + ModalService.FAILURE_TTL_MS });
      return answer;
    }
  }
}

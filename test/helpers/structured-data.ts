/**
 * A checker of schema.org JSON-LD against the properties Google Search documents for the rich results
 * the storefront aims at: merchant listings (Product, Offer, shipping details), product variants
 * (ProductGroup with hasVariant and variesBy), articles (Article, BlogPosting), events, organisations
 * (Organization, OnlineStore), the WebSite search action and breadcrumbs. A missing required property or a
 * malformed value is an error; a missing recommended property a warning. Written for Tessera's tests.
 */
type Obj = Record<string, unknown>;

export interface LdReport {
  errors: string[];
  warnings: string[];
  /** Every typed node met, by @type (nested ones too). */
  types: string[];
}

const SCHEMA = 'https://schema.org/';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const ABSOLUTE = /^https?:\/\/[^\s/]+/;
const AVAILABILITY = [
  'BackOrder',
  'Discontinued',
  'InStock',
  'InStoreOnly',
  'LimitedAvailability',
  'MadeToOrder',
  'OnlineOnly',
  'OutOfStock',
  'PreOrder',
  'PreSale',
  'Reserved',
  'SoldOut',
].map((x) => SCHEMA + x);
const CONDITION = ['NewCondition', 'RefurbishedCondition', 'UsedCondition', 'DamagedCondition'].map((x) => SCHEMA + x);
const VARIES_BY = ['color', 'size', 'suggestedAge', 'suggestedGender', 'material', 'pattern', 'audience'].map((x) => SCHEMA + x);
const EVENT_STATUS = ['EventScheduled', 'EventCancelled', 'EventMovedOnline', 'EventPostponed', 'EventRescheduled'].map((x) => SCHEMA + x);
const ATTENDANCE = ['OfflineEventAttendanceMode', 'OnlineEventAttendanceMode', 'MixedEventAttendanceMode'].map((x) => SCHEMA + x);

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const typeOf = (n: Obj): string[] => list(n['@type']).map(String);

class Checker {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly types: string[] = [];

  private need(ok: boolean, at: string, what: string) {
    if (!ok) this.errors.push(`${at}: ${what}`);
  }
  private want(ok: boolean, at: string, what: string) {
    if (!ok) this.warnings.push(`${at}: ${what}`);
  }
  private url(v: unknown, at: string, required = false) {
    if (v === undefined) return required ? this.need(false, at, 'is required') : undefined;
    for (const u of list(v))
      this.need(typeof u === 'string' && ABSOLUTE.test(u), at, `must be an absolute address, not ${JSON.stringify(u)}`);
  }
  private date(v: unknown, at: string) {
    if (v !== undefined) this.need(typeof v === 'string' && ISO_DATE.test(v), at, `must be an ISO 8601 date, not ${JSON.stringify(v)}`);
  }
  private images(v: unknown, at: string, required: boolean) {
    const all = list(v);
    (required ? this.need : this.want).call(this, all.length > 0, at, 'image is ' + (required ? 'required' : 'recommended'));
    for (const i of all) this.url(isObj(i) ? (i.url ?? i.contentUrl) : i, `${at}.image`);
  }

  node(n: unknown, at: string, inGroup = false) {
    if (!isObj(n)) return this.need(false, at, 'must be an object');
    const types = typeOf(n);
    this.types.push(...types);
    if (types.includes('ProductGroup')) return this.productGroup(n, at);
    if (types.includes('Product')) return this.product(n, at, inGroup);
    if (types.some((t) => ['Article', 'BlogPosting', 'NewsArticle'].includes(t))) return this.article(n, at);
    if (types.includes('Event')) return this.event(n, at);
    if (types.some((t) => ['Organization', 'OnlineStore', 'OnlineBusiness', 'Store', 'LocalBusiness'].includes(t)))
      return this.organization(n, at);
    if (types.includes('WebSite')) return this.webSite(n, at);
    if (types.includes('BreadcrumbList')) return this.breadcrumbs(n, at);
    this.need(false, at, `unexpected type ${JSON.stringify(n['@type'])}`);
  }

  product(n: Obj, at: string, inGroup: boolean) {
    this.need(text(n.name), at, 'name is required');
    this.images(n.image, at, true);
    const offers = list(n.offers);
    this.need(offers.length > 0, at, 'offers is required (merchant listings)');
    for (const [i, o] of offers.entries()) this.offer(o, `${at}.offers[${i}]`);
    if (!inGroup) {
      this.want(isObj(n.brand) && text(n.brand.name), at, 'brand.name is recommended');
      this.want(text(n.description), at, 'description is recommended');
    }
    this.want(text(n.sku), at, 'sku is recommended');
    this.want(
      text(n.gtin) || text(n.mpn) || text(n.gtin13) || text(n.gtin12) || text(n.gtin14) || text(n.gtin8),
      at,
      'gtin or mpn is recommended',
    );
    if (n.gtin !== undefined) this.need(/^\d{8}$|^\d{12,14}$/.test(String(n.gtin)), at, 'gtin must be 8, 12, 13 or 14 digits');
    this.url(n.url, `${at}.url`);
    if (n.aggregateRating !== undefined) this.rating(n.aggregateRating, `${at}.aggregateRating`);
  }

  offer(o: unknown, at: string) {
    if (!isObj(o)) return this.need(false, at, 'must be an Offer');
    this.need(
      typeOf(o).some((t) => t === 'Offer' || t === 'AggregateOffer'),
      at,
      '@type must be Offer or AggregateOffer',
    );
    const price = o.price ?? (isObj(o.priceSpecification) ? o.priceSpecification.price : undefined) ?? o.lowPrice;
    this.need(
      price !== undefined && /^\d+(\.\d+)?$/.test(String(price)),
      at,
      `price is required as a number, not ${JSON.stringify(price)}`,
    );
    this.need(
      /^[A-Z]{3}$/.test(String(o.priceCurrency ?? (isObj(o.priceSpecification) ? o.priceSpecification.priceCurrency : ''))),
      at,
      'priceCurrency is required (ISO 4217)',
    );
    this.want(o.availability !== undefined, at, 'availability is recommended');
    if (o.availability !== undefined)
      this.need(
        AVAILABILITY.includes(String(o.availability)),
        at,
        `availability ${String(o.availability)} is not a schema.org ItemAvailability`,
      );
    this.want(o.itemCondition !== undefined, at, 'itemCondition is recommended');
    if (o.itemCondition !== undefined)
      this.need(CONDITION.includes(String(o.itemCondition)), at, `itemCondition ${String(o.itemCondition)} is not an OfferItemCondition`);
    this.url(o.url, `${at}.url`);
    this.want(list(o.shippingDetails).length > 0, at, 'shippingDetails is recommended');
    for (const [i, s] of list(o.shippingDetails).entries()) this.shipping(s, `${at}.shippingDetails[${i}]`);
    this.want(o.hasMerchantReturnPolicy !== undefined, at, 'hasMerchantReturnPolicy is recommended');
  }

  shipping(s: unknown, at: string) {
    if (!isObj(s)) return this.need(false, at, 'must be an OfferShippingDetails');
    this.need(typeOf(s).includes('OfferShippingDetails'), at, '@type must be OfferShippingDetails');
    const dests = list(s.shippingDestination);
    this.need(dests.length > 0, at, 'shippingDestination is required');
    for (const d of dests)
      this.need(
        isObj(d) && /^[A-Z]{2}$/.test(String(d.addressCountry)),
        at,
        'shippingDestination.addressCountry must be a two-letter ISO 3166 code',
      );
    const rate = s.shippingRate;
    if (s.doesNotShip !== true) {
      this.need(isObj(rate), at, 'shippingRate is required');
      if (isObj(rate)) {
        this.need(/^\d+(\.\d+)?$/.test(String(rate.value ?? rate.maxValue)), at, 'shippingRate.value must be a number');
        this.need(/^[A-Z]{3}$/.test(String(rate.currency)), at, 'shippingRate.currency must be an ISO 4217 code');
      }
    }
  }

  rating(r: unknown, at: string) {
    this.need(isObj(r) && r.ratingValue !== undefined, at, 'ratingValue is required');
    this.need(isObj(r) && (r.reviewCount !== undefined || r.ratingCount !== undefined), at, 'reviewCount or ratingCount is required');
  }

  productGroup(n: Obj, at: string) {
    this.need(text(n.name), at, 'name is required');
    this.want(text(n.productGroupID), at, 'productGroupID is recommended');
    this.want(isObj(n.brand) && text(n.brand.name), at, 'brand.name is recommended');
    this.want(text(n.description), at, 'description is recommended');
    this.url(n.url, `${at}.url`);
    const varies = list(n.variesBy).map(String);
    this.want(varies.length > 0, at, 'variesBy is recommended');
    for (const v of varies) this.need(VARIES_BY.includes(v), at, `variesBy ${v} is not one Google reads`);
    const variants = list(n.hasVariant);
    this.need(variants.length > 0, at, 'hasVariant is required to list the variants');
    const urls = new Set<string>();
    const combos = new Set<string>();
    for (const [i, v] of variants.entries()) {
      const vat = `${at}.hasVariant[${i}]`;
      if (!isObj(v) || !typeOf(v).includes('Product')) {
        this.need(false, vat, 'must be a Product');
        continue;
      }
      this.product(v, vat, true);
      for (const p of varies) {
        const key = p.slice(SCHEMA.length);
        this.need(text(v[key]), vat, `${key} is required: the group varies by it`);
      }
      combos.add(varies.map((p) => String(v[p.slice(SCHEMA.length)] ?? '')).join('|'));
      // Each variant has an address of its own, so search engines can send a shopper to it.
      const offer = list(v.offers)[0];
      const own = String(v.url ?? (isObj(offer) ? offer.url : '') ?? '');
      this.need(own !== '' && !urls.has(own), vat, 'each variant needs its own url');
      urls.add(own);
    }
    if (varies.length) this.need(combos.size === variants.length, at, 'two variants share the same variesBy values');
    if (n.aggregateRating !== undefined) this.rating(n.aggregateRating, `${at}.aggregateRating`);
  }

  article(n: Obj, at: string) {
    this.want(text(n.headline), at, 'headline is recommended');
    if (typeof n.headline === 'string') this.need(n.headline.length <= 110, at, 'headline longer than 110 characters');
    this.images(n.image, at, false);
    this.want(n.datePublished !== undefined, at, 'datePublished is recommended');
    this.want(n.dateModified !== undefined, at, 'dateModified is recommended');
    this.date(n.datePublished, `${at}.datePublished`);
    this.date(n.dateModified, `${at}.dateModified`);
    const authors = list(n.author);
    this.want(authors.length > 0, at, 'author is recommended');
    for (const a of authors)
      this.need(
        isObj(a) && typeOf(a).some((t) => t === 'Person' || t === 'Organization') && text(a.name),
        at,
        'author must be a Person or Organization with a name',
      );
  }

  event(n: Obj, at: string) {
    this.need(text(n.name), at, 'name is required');
    this.need(n.startDate !== undefined, at, 'startDate is required');
    this.date(n.startDate, `${at}.startDate`);
    this.date(n.endDate, `${at}.endDate`);
    if (typeof n.startDate === 'string' && typeof n.endDate === 'string')
      this.need(Date.parse(n.endDate) >= Date.parse(n.startDate), at, 'endDate is before startDate');
    const locations = list(n.location);
    this.need(locations.length > 0, at, 'location is required');
    for (const l of locations) {
      if (!isObj(l)) {
        this.need(false, at, 'location must be a Place or VirtualLocation');
        continue;
      }
      if (typeOf(l).includes('VirtualLocation')) this.url(l.url, `${at}.location.url`, true);
      else {
        this.need(typeOf(l).includes('Place'), at, 'location must be a Place');
        this.need(isObj(l.address) || text(l.address), at, 'location.address is required');
        this.want(text(l.name), at, 'location.name is recommended');
      }
    }
    this.want(text(n.description), at, 'description is recommended');
    this.want(n.endDate !== undefined, at, 'endDate is recommended');
    this.want(n.eventStatus !== undefined, at, 'eventStatus is recommended');
    if (n.eventStatus !== undefined)
      this.need(EVENT_STATUS.includes(String(n.eventStatus)), at, `eventStatus ${String(n.eventStatus)} is not an EventStatusType`);
    this.want(n.eventAttendanceMode !== undefined, at, 'eventAttendanceMode is recommended');
    if (n.eventAttendanceMode !== undefined)
      this.need(
        ATTENDANCE.includes(String(n.eventAttendanceMode)),
        at,
        `eventAttendanceMode ${String(n.eventAttendanceMode)} is not an EventAttendanceModeEnumeration`,
      );
    this.images(n.image, at, false);
    this.want(n.organizer !== undefined, at, 'organizer is recommended');
  }

  organization(n: Obj, at: string) {
    this.want(text(n.name), at, 'name is recommended');
    this.want(n.url !== undefined, at, 'url is recommended');
    this.url(n.url, `${at}.url`);
    this.want(n.logo !== undefined, at, 'logo is recommended');
    this.url(isObj(n.logo) ? n.logo.url : n.logo, `${at}.logo`);
    this.want(n.address !== undefined, at, 'address is recommended');
    if (isObj(n.address)) {
      const a = n.address;
      this.need(typeOf(a).includes('PostalAddress'), at, 'address must be a PostalAddress');
      for (const k of ['streetAddress', 'addressLocality', 'postalCode', 'addressCountry'])
        this.want(text(a[k]), at, `address.${k} is recommended`);
      if (a.addressCountry !== undefined)
        this.need(/^[A-Z]{2}$/.test(String(a.addressCountry)), at, 'address.addressCountry must be a two-letter ISO 3166 code');
    }
    this.want(
      n.contactPoint !== undefined || n.email !== undefined || n.telephone !== undefined,
      at,
      'contactPoint, email or telephone is recommended',
    );
    for (const s of list(n.sameAs)) this.url(s, `${at}.sameAs`);
  }

  webSite(n: Obj, at: string) {
    this.want(text(n.name), at, 'name is recommended');
    this.url(n.url, `${at}.url`, true);
    const action = n.potentialAction;
    if (action === undefined) return;
    this.need(isObj(action) && typeOf(action).includes('SearchAction'), at, 'potentialAction must be a SearchAction');
    if (!isObj(action)) return;
    const target = isObj(action.target) ? action.target.urlTemplate : action.target;
    this.need(
      typeof target === 'string' && ABSOLUTE.test(target) && target.includes('{search_term_string}'),
      at,
      'SearchAction target needs an absolute urlTemplate with {search_term_string}',
    );
    this.need(action['query-input'] === 'required name=search_term_string', at, 'SearchAction query-input must name search_term_string');
  }

  breadcrumbs(n: Obj, at: string) {
    const items = list(n.itemListElement);
    this.need(items.length > 0, at, 'itemListElement is required');
    for (const [i, e] of items.entries()) {
      this.need(isObj(e) && typeOf(e).includes('ListItem'), `${at}[${i}]`, 'must be a ListItem');
      if (!isObj(e)) continue;
      this.need(e.position === i + 1, `${at}[${i}]`, 'position must count from 1');
      this.need(text(e.name), `${at}[${i}]`, 'name is required');
      if (i < items.length - 1) this.url(e.item, `${at}[${i}].item`, true);
    }
  }
}

/** Checks JSON-LD nodes (one script's parsed JSON, or several). */
export function checkJsonLd(value: unknown): LdReport {
  const c = new Checker();
  for (const [i, n] of list(value).entries()) {
    const at = `${isObj(n) ? typeOf(n).join(',') : 'node'}#${i}`;
    if (isObj(n)) {
      if (n['@context'] !== 'https://schema.org' && n['@context'] !== 'https://schema.org/')
        c.errors.push(`${at}: @context must be https://schema.org`);
      for (const g of list(n['@graph'])) c.node(g, `${at}.@graph`);
      if (n['@graph'] !== undefined) continue;
    }
    c.node(n, at);
  }
  return { errors: c.errors, warnings: c.warnings, types: c.types };
}

/**
 * Every JSON-LD script of an HTML page, parsed. A script whose text is not valid JSON, or that holds a
 * raw '<' (so could end the element early), fails.
 */
export function pageJsonLd(html: string): Obj[] {
  const out: Obj[] = [];
  for (const m of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = m[1]!;
    if (body.includes('<')) throw new Error(`a JSON-LD script holds a raw '<': ${body.slice(0, 200)}`);
    out.push(JSON.parse(body) as Obj);
  }
  return out;
}

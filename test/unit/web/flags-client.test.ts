import { describe, expect, it, vi } from 'vitest';
import { Tracker, type TrackerEnv } from '../../../src/web/client/tracker.js';
import type { CookieJar, KeyValue } from '../../../src/web/client/tracker-cookies.js';
import { parseFlags, settleExperiments, experimentTags, type FlagsData } from '../../../src/web/client/flags.js';
import { maybeStartRecording } from '../../../src/web/client/session-recording.js';
import { DEFAULT_ANALYTICS_OPTIONS, type AnalyticsOptions } from '../../../src/core/analytics-options.js';
import { SESSION_RECORDER_MOCK_ID } from '../../../src/core/session-recording.js';
import { assignVariant } from '../../../src/core/experiments.js';

class Jar implements CookieJar {
  values = new Map<string, string>();
  get(n: string) {
    return this.values.get(n);
  }
  set(n: string, v: string) {
    this.values.set(n, v);
  }
}
class Store implements KeyValue {
  m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

function env(options: Partial<AnalyticsOptions> = {}, tags: string[] = [], status = 202) {
  const calls: Array<{ url: string; body: string }> = [];
  const beacons: Array<{ url: string; body: string }> = [];
  const warnings: string[] = [];
  let n = 0;
  const e: TrackerEnv = {
    page: {
      websiteId: 'site1',
      templateId: 'default',
      pageType: 1,
      locale: 'en-US',
      track: true,
      cookiePolicy: 'implied',
      itemId: null,
      collectionId: null,
    },
    jar: new Jar(),
    local: new Store(),
    session: new Store(),
    now: () => 1_700_000_000_000,
    random: () => ((n = (n * 9301 + 49297) % 233280), n / 233280),
    beacon: (url, body) => (beacons.push({ url, body }), true),
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, body: String(init.body) });
      return new Response('{}', { status });
    }) as unknown as typeof fetch,
    location: { href: 'http://shop.test/shop', host: 'shop.test', pathname: '/shop', search: '' },
    document: { title: 'Shop', referrer: '', lang: 'en-US' },
    browser: {
      userAgent: 'UA',
      language: 'en-US',
      locale: 'en-US',
      innerWidth: 800,
      innerHeight: 600,
      screenWidth: 1920,
      screenHeight: 1080,
    },
    options: { ...DEFAULT_ANALYTICS_OPTIONS, ...options },
    experiments: () => tags,
    warn: (m) => warnings.push(m),
  };
  return { e, calls, beacons, warnings };
}

describe('analytics client options', () => {
  it('defaults: events go by beacon to /api/v1/events with the experiment tags and source environment', async () => {
    const { e, beacons, calls } = env({}, ['hero:bold']);
    const t = new Tracker(e);
    t.event('add_to_cart', { cart_value: 100 });
    await t.flush();
    expect(calls).toHaveLength(0);
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.url).toBe('/api/v1/events');
    const content = JSON.parse(JSON.parse(beacons[0]!.body)[0].eventContent);
    expect(content).toMatchObject({ experiments: ['hero:bold'], source_environment: 'prod', cart_value: 100 });
  });

  it('fire events off sends nothing; beacon off uses a plain request and warns on a status other than 200/202', async () => {
    const off = env({ fireEvents: false });
    const t1 = new Tracker(off.e);
    t1.event('add_to_cart');
    await t1.flush();
    expect(off.beacons.length + off.calls.length).toBe(0);

    const plain = env({ beacon: false, sourceEnvironment: 'qa', serviceUrl: 'https://events.qa1.example' }, [], 500);
    const t2 = new Tracker(plain.e);
    t2.event('view_cart');
    expect(await t2.flush()).toBe(false);
    expect(plain.beacons).toHaveLength(0);
    expect(plain.calls[0]!.url).toBe('https://events.qa1.example/api/v1/events');
    expect(JSON.parse(JSON.parse(plain.calls[0]!.body)[0].eventContent).source_environment).toBe('qa');
    expect(plain.warnings).toContain('analytics HTTP status 500 not accepted');
  });

  it('validate mode posts each event to the schema endpoint instead of recording it; logging logs events', async () => {
    const { e, beacons, calls, warnings } = env({ validate: true, logging: true }, [], 400);
    const t = new Tracker(e);
    t.event('add_to_cart', { cart_value: 5 });
    expect(await t.flush()).toBe(false);
    expect(beacons).toHaveLength(0);
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/schemas/add_to_cart']);
    expect(warnings).toEqual(['analytics event add_to_cart', 'analytics event add_to_cart does not match its schema']);
  });

  it('validate mode with an events service posts the event content to {events service}/{schema name}, without the site crumb', async () => {
    const { e, calls, beacons } = env({ validate: true, serviceUrl: 'https://events.qa1.example' }, [], 200);
    (e.jar as Jar).set('crumb', 'site-crumb-1');
    const heads: Array<Record<string, string>> = [];
    const inner = e.fetch;
    e.fetch = ((url: string, init: RequestInit) => (heads.push(init.headers as Record<string, string>), inner(url, init))) as typeof fetch;
    const t = new Tracker(e);
    t.event('view_cart', { cart_value: 1200 });
    expect(await t.flush()).toBe(true);
    expect(beacons).toHaveLength(0);
    expect(calls.map((c) => c.url)).toEqual(['https://events.qa1.example/view_cart']);
    expect(JSON.parse(calls[0]!.body)).toMatchObject({ custom_schema_name: 'view_cart', cart_value: 1200, context_website_id: 'site1' });
    expect(heads[0]!['x-csrf-token']).toBeUndefined();
    // The site's own calls still carry it.
    t.census('overlay');
    expect(heads[1]!['x-csrf-token']).toBe('site-crumb-1');
  });

  it("warns 'analytics id cannot be stored' when local storage is missing or refuses the id, and still tracks", async () => {
    const missing = env();
    missing.e.local = null;
    const t1 = new Tracker(missing.e);
    expect(t1.visitor?.analyticsId).toMatch(/^[A-Za-z0-9-]{8,64}$/);
    expect(missing.warnings).toEqual(['analytics id cannot be stored']);

    const full = env();
    full.e.local = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    new Tracker(full.e);
    expect(full.warnings).toEqual(['analytics id cannot be stored']);

    const fine = env();
    new Tracker(fine.e);
    expect(fine.warnings).toEqual([]);
  });

  it("member_account_locale is the signed-in site user's language from the page, null for a visitor", () => {
    const signedIn = env();
    signedIn.e.page = { ...signedIn.e.page, memberLocale: 'fr-FR' };
    (signedIn.e.jar as Jar).set('SiteUserInfo', encodeURIComponent(JSON.stringify({ authenticated: true, siteUserId: 'u1' })));
    expect(new Tracker(signedIn.e).content('view_cart', {})).toMatchObject({ member_account_locale: 'fr-FR', is_logged_in: true });
    const visitor = env();
    visitor.e.page = { ...visitor.e.page, memberLocale: 'fr-FR' };
    expect(new Tracker(visitor.e).content('view_cart', {}).member_account_locale).toBeNull();
  });

  it("warns 'auto-populated fields overwritten' when an event's own fields replace filled ones", () => {
    const { e, warnings } = env();
    const t = new Tracker(e);
    t.content('add_to_cart', { page_path: '/elsewhere', cart_value: 1 });
    expect(warnings).toEqual(['auto-populated fields overwritten']);
    t.content('add_to_cart', { cart_value: 1, destination_url: 'http://shop.test/x' });
    expect(warnings).toHaveLength(1);
  });
});

const flagsData = (over: Partial<FlagsData> = {}): FlagsData =>
  parseFlags(
    JSON.stringify({
      internal: false,
      experiments: [
        {
          name: 'hero',
          key: 'tessera.experiment.hero',
          variants: [
            { name: 'a', weight: 50 },
            { name: 'b', weight: 50 },
          ],
          variant: null,
        },
      ],
      analytics: {},
      recording: { country: 'US', timeZone: 'America/Chicago', toggle: true },
      ...over,
    }),
  )!;

describe('experiments in the browser', () => {
  it('parses the island leniently', () => {
    expect(parseFlags('nope')).toBeNull();
    expect(parseFlags(null)).toBeNull();
    expect(parseFlags('{}')).toEqual({
      internal: false,
      experiments: [],
      analytics: DEFAULT_ANALYTICS_OPTIONS,
      recording: { country: null, timeZone: null, toggle: false },
    });
  });

  it('stores an override under the experiment key on an internal host, keeps it, and a reset removes it', () => {
    const local = new Store();
    const f = flagsData({ internal: true });
    const hashed = assignVariant(f.experiments[0]!, 'v1');
    const other = hashed === 'a' ? 'b' : 'a';
    expect(settleExperiments(f, { visitorId: 'v1', search: `?experiment.hero=${other}`, local })).toEqual({ hero: other });
    expect(local.getItem('tessera.experiment.hero')).toBe(other);
    expect(settleExperiments(f, { visitorId: 'v1', search: '', local })).toEqual({ hero: other });
    expect(settleExperiments(f, { visitorId: 'v1', search: '?experiment.hero=reset', local })).toEqual({ hero: hashed });
    expect(local.getItem('tessera.experiment.hero')).toBeNull();
  });

  it('ignores overrides and stored values on a production host', () => {
    const local = new Store();
    local.setItem('tessera.experiment.hero', 'b');
    const f = flagsData();
    const hashed = assignVariant(f.experiments[0]!, 'v2');
    expect(settleExperiments(f, { visitorId: 'v2', search: '?experiment.hero=a', local })).toEqual({ hero: hashed });
    expect(local.getItem('tessera.experiment.hero')).toBe('b');
    expect(experimentTags({ hero: hashed })).toEqual([`hero:${hashed}`]);
  });
});

describe('session recorder', () => {
  /** The getId answer: the id as a JSON string, the script in the X-Recorder-Script header. */
  const answer = (body: { id: string; scriptUrl: string | null }) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(body.id), { status: 200, headers: body.scriptUrl ? { 'x-recorder-script': body.scriptUrl } : {} }),
    ) as unknown as typeof fetch & ReturnType<typeof vi.fn>;

  it('asks nothing when the rule says no', async () => {
    const fetch = answer({ id: 'o-1', scriptUrl: 'https://rec.example/s.js' });
    const load = vi.fn();
    expect(await maybeStartRecording(flagsData(), { 'session-recording': 'false' }, { fetch, hardwareThreads: 8, load })).toBe('skipped');
    expect(await maybeStartRecording(flagsData(), { 'session-recording': 'true' }, { fetch, hardwareThreads: 2, load })).toBe('skipped');
    expect(fetch).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  it('the mock id means skip; a configured recorder loads its script', async () => {
    const load = vi.fn();
    expect(
      await maybeStartRecording(
        flagsData(),
        { 'session-recording': 'true' },
        { fetch: answer({ id: SESSION_RECORDER_MOCK_ID, scriptUrl: null }), hardwareThreads: 8, load },
      ),
    ).toBe('skipped');
    expect(load).not.toHaveBeenCalled();
    expect(
      await maybeStartRecording(
        flagsData(),
        { 'session-recording': 'true' },
        { fetch: answer({ id: 'o-1', scriptUrl: 'https://rec.example/s.js' }), hardwareThreads: 8, load },
      ),
    ).toBe('started');
    expect(load).toHaveBeenCalledWith('https://rec.example/s.js', 'o-1');
  });
});

describe('marketing_id', () => {
  it("is the landing address's utm_campaign, kept for the session, only with consent, and absent without a campaign", () => {
    const landed = env();
    landed.e.location = { ...landed.e.location, search: '?utm_source=mail&utm_campaign=spring-sale' };
    const t = new Tracker(landed.e);
    expect(t.content('view_cart', {}).marketing_id).toBe('spring-sale');
    // The next page of the same visit has no campaign in its address; the session keeps the landing one.
    const next = { ...landed.e, location: { ...landed.e.location, search: '?page=2' } };
    expect(new Tracker(next).content('view_cart', {}).marketing_id).toBe('spring-sale');

    const plain = env();
    expect('marketing_id' in new Tracker(plain.e).content('view_cart', {})).toBe(false);

    const long = env();
    long.e.location = { ...long.e.location, search: `?utm_id=${'x'.repeat(100)}` };
    expect(new Tracker(long.e).content('view_cart', {}).marketing_id).toBe('x'.repeat(64));

    const control = env();
    control.e.location = { ...control.e.location, search: '?utm_campaign=a%00b' };
    expect('marketing_id' in new Tracker(control.e).content('view_cart', {})).toBe(false);

    const asked = env();
    asked.e.page = { ...asked.e.page, cookiePolicy: 'restrictive' };
    asked.e.location = { ...asked.e.location, search: '?utm_campaign=spring-sale' };
    expect('marketing_id' in new Tracker(asked.e).content('view_cart', {})).toBe(false);
  });
});

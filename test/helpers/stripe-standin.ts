/**
 * A local stand-in of Stripe's HTTP API for the tests (no internet): the official SDK talks to it through its
 * documented `host`, `port` and `protocol` options (STRIPE_API_URL). It speaks the wire format of the
 * endpoints Tessera uses: form-encoded bodies with bracketed keys (`metadata[k]=v`, `expand[0]=x`), the
 * `Idempotency-Key` header (the first answer is replayed for the same key; the same key with other
 * parameters is refused with an idempotency_error, as Stripe does), Stripe's error object and status codes,
 * and `expand[]` of `latest_charge`.
 *
 * Test payment methods (Stripe's documented test ids):
 *   pm_card_visa                              succeeds (visa 4242)
 *   pm_card_mastercard                        succeeds (mastercard 4444)
 *   pm_card_chargeDeclined                    declined: 'Your card was declined.'
 *   pm_card_chargeDeclinedInsufficientFunds   declined: 'Your card has insufficient funds.'
 *   pm_card_authenticationRequired            needs 3-D Secure (requires_action); see authenticate()
 *
 * Card numbers typed into the stand-in Stripe.js (`test/helpers/stripe-js-standin.js`, served at `/v3/stripe.js`)
 * become PaymentMethods (`POST /v1/payment_methods` with the publishable key, as the real Stripe.js does):
 *   4242 4242 4242 4242 visa, 5555 5555 5555 4444 mastercard, 4000 0000 0000 0002 declined,
 *   4000 0000 0000 9995 insufficient funds, 4000 0027 6000 3184 needs 3-D Secure.
 * `afterpay_clearpay` PaymentMethods redirect to the stand-in's Afterpay page, which authorises or fails.
 *
 * Stripe Billing: products, prices (recurring), customers (list by email), subscriptions (create with
 * payment_behavior=default_incomplete and `expand[]=latest_invoice.payments`, retrieve, update cancel_at, DELETE
 * to cancel) and invoices (retrieve, `payments` includable). A subscription's invoice has a PaymentIntent that is
 * confirmed like any other; its success pays the invoice (invoice.paid) and activates the subscription. The test
 * moves time with `renew(subId)` (the next period's invoice, charged to the saved method) and `advanceClock`.
 *
 * Every change of state makes an event (payment_intent.succeeded, charge.refunded, …) kept in `events`;
 * the test delivers it when it chooses, signed with Stripe's documented scheme (`signedDelivery`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, unknown>;

export interface StandinEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Obj };
}

interface Card {
  brand: string;
  last4: string;
  outcome: 'succeed' | 'decline' | 'funds' | '3ds' | 'redirect';
  type?: string;
}

/** Stripe's test card numbers, as the stand-in Stripe.js sends them, and the PaymentMethod each becomes. */
const TEST_NUMBERS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000002760003184': 'pm_card_authenticationRequired',
};

const STRIPE_JS = readFileSync(new URL('./stripe-js-standin.js', import.meta.url), 'utf8');

const CARDS: Record<string, Card> = {
  pm_card_visa: { brand: 'visa', last4: '4242', outcome: 'succeed' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', outcome: 'succeed' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', outcome: 'decline' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', outcome: 'funds' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', outcome: '3ds' },
};

/** Parses a form-encoded body with bracketed keys into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split('[').map((p, i) => (i === 0 ? p : p.replace(/\]$/, '')));
    let node: Obj = out;
    for (let i = 0; i < parts.length; i++) {
      const k = parts[i]!;
      if (i === parts.length - 1) node[k] = value;
      else node = (node[k] ??= {}) as Obj;
    }
  }
  // Objects whose keys are all 0..n-1 are arrays.
  const fix = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const o = v as Obj;
    for (const k of Object.keys(o)) o[k] = fix(o[k]);
    const keys = Object.keys(o);
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => o[k]);
    return o;
  };
  return fix(out) as Obj;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}

const now = () => Math.floor(Date.now() / 1000);
const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class StripeStandin {
  private server: http.Server | null = null;
  readonly intents = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  /** Stripe Billing: products, prices, customers, subscriptions and invoices (billing.ts's calls). */
  readonly products = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly customers = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  /** PaymentIntent id -> the invoice it pays. */
  private readonly invoiceOfIntent = new Map<string, string>();
  /** Seconds added to the stand-in's clock (advanceClock): Stripe's time passing for renewals and cancel_at. */
  clockOffset = 0;
  /** PaymentMethods made by the stand-in Stripe.js (pm id -> the test card or method it stands for). */
  readonly methods = new Map<string, Card>();
  readonly events: StandinEvent[] = [];
  /** Every request as received (method, path, parsed body, headers), for assertions on the wire format. */
  readonly requests: Array<{ method: string; path: string; body: Obj; headers: http.IncomingHttpHeaders }> = [];
  private readonly idempotent = new Map<string, { params: string; status: number; body: Obj }>();
  /** When set, every API call answers 503 (Stripe unreachable as far as Tessera can tell). */
  down = false;
  account: Obj = {
    id: 'acct_test_tessera',
    object: 'account',
    country: 'US',
    default_currency: 'usd',
    charges_enabled: true,
    payouts_enabled: true,
    email: 'owner@example.com',
  };

  readonly publishableKey = 'pk_test_tessera_standin';

  constructor(
    readonly secretKey = 'sk_test_tessera_standin',
    readonly webhookSecret = 'whsec_tessera_standin_secret',
  ) {}

  get url(): string {
    const a = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${a.port}`;
  }

  /** The environment that points Tessera at this stand-in. */
  env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_PUBLISHABLE_KEY: this.publishableKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_URL: this.url,
      STRIPE_JS_URL: `${this.url}/v3/stripe.js`,
    };
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => this.handle(req, body, res));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server?.closeAllConnections?.();
  }

  // ---- Webhooks --------------------------------------------------------------------------------------

  /** The Stripe-Signature header for a payload: `t=<unix seconds>,v1=<HMAC-SHA256 of "t.payload">`. */
  sign(payload: string, t = now(), secret = this.webhookSecret): string {
    const v1 = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
    return `t=${t},v1=${v1}`;
  }

  /** An event as Stripe POSTs it: the JSON body and its signature header. */
  signedDelivery(event: StandinEvent, t = now()): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({ ...event, object: 'event', api_version: '2026-10-28.endive', livemode: false });
    return { body, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': this.sign(body, t) } };
  }

  eventsOf(type: string, objectId?: string): StandinEvent[] {
    return this.events.filter(
      (e) => e.type === type && (!objectId || e.data.object.id === objectId || e.data.object.payment_intent === objectId),
    );
  }

  private emit(type: string, object: Obj): void {
    this.events.push({ id: rid('evt'), type, created: now(), data: { object: structuredClone(object) } });
  }

  // ---- Test controls (what the shopper's bank or Stripe's dashboard would do) ----------------------

  /** The shopper passes (or fails) the 3-D Secure step of a PaymentIntent. */
  authenticate(piId: string, pass: boolean): Obj {
    const pi = this.intents.get(piId);
    if (!pi || pi.status !== 'requires_action') throw new Error(`payment intent ${piId} is not waiting for authentication`);
    pi.next_action = null;
    if (pass) this.succeed(pi, this.cardOf(String(pi.payment_method))!);
    else
      this.fail(pi, {
        code: 'payment_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      });
    return pi;
  }

  private cardOf(pm: string): Card | undefined {
    return CARDS[pm] ?? this.methods.get(pm);
  }

  /** A dispute opened by the card holder's bank on a PaymentIntent's charge. */
  dispute(piId: string, reason = 'fraudulent'): Obj {
    const pi = this.intents.get(piId)!;
    const charge = this.charges.get(String(pi.latest_charge))!;
    const d = {
      id: rid('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: pi.id,
      reason,
      status: 'needs_response',
      created: now(),
    };
    charge.disputed = true;
    this.emit('charge.dispute.created', d);
    return d;
  }

  /** A refund made outside Tessera (the Stripe dashboard). */
  refundFromDashboard(piId: string, amount?: number): Obj {
    return this.createRefund({ payment_intent: piId, ...(amount ? { amount: String(amount) } : {}) });
  }

  /** Money held per PaymentIntent: captured minus refunded. */
  held(piId: string): number {
    const pi = this.intents.get(piId);
    const c = pi?.latest_charge ? this.charges.get(String(pi.latest_charge)) : undefined;
    return c && c.status === 'succeeded' ? Number(c.amount) - Number(c.amount_refunded) : 0;
  }

  // ---- The API -----------------------------------------------------------------------------------------

  private handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const params = parseStripeForm(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : raw);
    this.requests.push({ method, path: url.pathname, body: params, headers: req.headers });
    const send = (status: number, body: Obj) => {
      // Stripe's API answers browsers too (Stripe.js calls it with the publishable key).
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req'), 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(body));
    };
    if (method === 'GET' && url.pathname === '/v3/stripe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(STRIPE_JS);
      return;
    }
    // The Afterpay page (what the shopper sees at Afterpay): authorise or fail, then back to the return URL.
    const ap = /^\/afterpay\/(pi_[0-9a-f]{24})$/.exec(url.pathname);
    if (ap && this.intents.has(ap[1]!)) {
      const pi = this.intents.get(ap[1]!)!;
      const ret = String(((pi.next_action as Obj | null)?.redirect_to_url as Obj | undefined)?.return_url ?? '');
      if (method === 'POST') {
        const ok = parseStripeForm(raw).outcome === 'authorize';
        if (pi.status === 'requires_action') this.authenticate(String(pi.id), ok);
        const back = new URL(ret || 'http://invalid/');
        back.searchParams.set('payment_intent', String(pi.id));
        back.searchParams.set('payment_intent_client_secret', String(pi.client_secret));
        back.searchParams.set('redirect_status', ok ? 'succeeded' : 'failed');
        res.writeHead(303, { location: back.toString() });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Afterpay</title></head><body><main><h1>Afterpay: pay ${(Number(pi.amount) / 100).toFixed(2)} ${String(pi.currency).toUpperCase()} in 4</h1>` +
          `<form method="post"><button type="submit" name="outcome" value="authorize">Authorize payment</button> <button type="submit" name="outcome" value="fail">Fail payment</button></form></main></body></html>`,
      );
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    // The hosted Checkout page (what checkout.stripe.com shows the shopper): a Pay button and a way back.
    const page = /^\/pay\/(cs_test_[0-9a-f]{24})$/.exec(url.pathname);
    if (page && this.sessions.has(page[1]!)) {
      const s = this.sessions.get(page[1]!)!;
      if (method === 'POST') {
        if (s.status === 'open') this.paySession(page[1]!);
        res.writeHead(303, { location: String(s.success_url).replace('{CHECKOUT_SESSION_ID}', String(s.id)) });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Pay</title></head><body><main><h1>Pay ${(Number(s.amount_total) / 100).toFixed(2)} ${String(s.currency).toUpperCase()}</h1>` +
          `<form method="post"><button type="submit">Pay</button></form><a href="${String(s.cancel_url)}">Back</a></main></body></html>`,
      );
      return;
    }
    if (this.down) return send(503, { error: { type: 'api_error', message: 'Stripe is unavailable (stand-in switched off).' } });
    // What Stripe.js may do with the publishable key (sent as the `key` parameter, as Stripe.js does).
    if (params.key === this.publishableKey && req.headers.authorization === undefined) {
      try {
        return send(200, this.publishable(method, url.pathname, params));
      } catch (e) {
        if (!(e instanceof StripeError)) throw e;
        return send(e.status, { error: e.body });
      }
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return send(401, {
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${String(req.headers.authorization ?? '').slice(7, 15)}****`,
        },
      });
    }
    const key = req.headers['idempotency-key'];
    const idemKey = method === 'POST' && typeof key === 'string' ? `${url.pathname}|${key}` : null;
    const paramsText = JSON.stringify(params);
    if (idemKey) {
      const prior = this.idempotent.get(idemKey);
      if (prior) {
        if (prior.params !== paramsText) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
            },
          });
        }
        res.setHeader('idempotent-replayed', 'true');
        return send(prior.status, prior.body);
      }
    }
    let status = 200;
    let body: Obj;
    try {
      body = this.route(method, url.pathname, params);
    } catch (e) {
      if (!(e instanceof StripeError)) throw e;
      status = e.status;
      body = { error: e.body };
    }
    if (idemKey && status !== 503) this.idempotent.set(idemKey, { params: paramsText, status, body });
    send(status, body);
  }

  private route(method: string, path: string, p: Obj): Obj {
    const seg = path.split('/').filter(Boolean); // ['v1', ...]
    const expand = (Array.isArray(p.expand) ? p.expand : []) as string[];
    if (seg[0] !== 'v1') throw this.notFound(path);
    const [, a, b, c] = seg;
    if (method === 'GET' && a === 'account' && !b) return this.account;
    if (a === 'payment_intents') {
      if (method === 'POST' && !b) return this.view(this.createIntent(p), expand);
      if (method === 'GET' && b === 'search') return this.search(String(p.query ?? ''), expand);
      const pi = b ? this.intents.get(b) : undefined;
      if (!pi) throw this.missing('payment_intent', String(b));
      if (method === 'GET' && !c) return this.view(pi, expand);
      if (method === 'POST' && !c) return this.view(this.updateIntent(pi, p), expand);
      if (method === 'POST' && c === 'confirm') return this.view(this.confirm(pi, p), expand);
      if (method === 'POST' && c === 'cancel') return this.view(this.cancel(pi), expand);
    }
    if (a === 'refunds' && method === 'POST' && !b) return this.createRefund(p);
    if (a === 'products' && method === 'POST' && !b) return this.createProduct(p);
    if (a === 'prices' && method === 'POST' && !b) return this.createPrice(p);
    if (a === 'customers' && !b) {
      if (method === 'POST') return this.createCustomer(p);
      if (method === 'GET') {
        const data = [...this.customers.values()].filter((c2) => !p.email || c2.email === p.email).slice(0, Number(p.limit ?? 10));
        return { object: 'list', data, has_more: false, url: '/v1/customers' };
      }
    }
    if (a === 'subscriptions') {
      if (method === 'POST' && !b) return this.subscriptionView(this.createSubscription(p), expand);
      const sub = b ? this.subscriptions.get(b) : undefined;
      if (!sub) throw this.missing('subscription', String(b));
      if (method === 'GET' && !c) return this.subscriptionView(sub, expand);
      if (method === 'POST' && !c) return this.subscriptionView(this.updateSubscription(sub, p), expand);
      if (method === 'DELETE' && !c) return this.subscriptionView(this.cancelSubscription(sub), expand);
    }
    if (a === 'invoices' && method === 'GET' && b && !c) {
      const inv = this.invoices.get(b);
      if (!inv) throw this.missing('invoice', b);
      return this.invoiceView(inv, expand);
    }
    if (a === 'checkout' && b === 'sessions') {
      if (method === 'POST' && !c) return this.createSession(p);
      const s = c ? this.sessions.get(c) : undefined;
      if (!s) throw this.missing('checkout.session', String(c));
      if (method === 'GET') return s;
    }
    throw this.notFound(path);
  }

  /**
   * The calls Stripe.js makes with the publishable key: create a PaymentMethod from the card fields, read a
   * PaymentIntent by its client secret, and (the bank's 3-D Secure page, here a call) authenticate it.
   */
  private publishable(method: string, path: string, p: Obj): Obj {
    const seg = path.split('/').filter(Boolean);
    if (method === 'POST' && path === '/v1/payment_methods') return this.createMethod(p);
    if (seg[0] === 'v1' && seg[1] === 'payment_intents' && seg[2]) {
      const pi = this.intents.get(seg[2]);
      if (!pi || p.client_secret !== pi.client_secret) throw this.missing('payment_intent', seg[2]);
      const { client_secret: _c, ...rest } = pi;
      const visible = { ...structuredClone(rest), client_secret: pi.client_secret };
      if (method === 'GET' && !seg[3]) return visible;
      if (method === 'POST' && seg[3] === 'standin_authenticate') {
        if (pi.status !== 'requires_action')
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'This PaymentIntent is not waiting for authentication.',
          });
        this.authenticate(String(pi.id), p.outcome === 'complete');
        return structuredClone(this.intents.get(seg[2])!);
      }
    }
    throw new StripeError(401, {
      type: 'invalid_request_error',
      message: 'This API call cannot be made with a publishable API key. Please use a secret API key.',
    });
  }

  private createMethod(p: Obj): Obj {
    const id = rid('pm');
    if (p.type === 'afterpay_clearpay') {
      const billing = (p.billing_details ?? {}) as Obj;
      if (!billing.email || !billing.name) throw this.invalid('billing_details', 'Afterpay needs the customer’s name and email.');
      this.methods.set(id, { brand: 'afterpay_clearpay', last4: '', outcome: 'redirect', type: 'afterpay_clearpay' });
      return { id, object: 'payment_method', type: 'afterpay_clearpay', billing_details: billing };
    }
    if (p.type !== 'card') throw this.invalid('type', 'Invalid payment method type.');
    const card = (p.card ?? {}) as Obj;
    const number = String(card.number ?? '').replace(/\s/g, '');
    const luhn =
      /^\d{12,19}$/.test(number) &&
      [...number].reverse().reduce((sum, ch, i) => {
        let d = Number(ch);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        return sum + d;
      }, 0) %
        10 ===
        0;
    if (!luhn)
      throw new StripeError(402, { type: 'card_error', code: 'invalid_number', param: 'number', message: 'Your card number is invalid.' });
    const month = Number(card.exp_month);
    const year = Number(card.exp_year);
    const d = new Date();
    if (!(month >= 1 && month <= 12) || !(year > d.getUTCFullYear() || (year === d.getUTCFullYear() && month >= d.getUTCMonth() + 1))) {
      throw new StripeError(402, {
        type: 'card_error',
        code: 'invalid_expiry_year',
        param: 'exp_year',
        message: 'Your card’s expiration date is in the past.',
      });
    }
    if (!/^\d{3,4}$/.test(String(card.cvc ?? '')))
      throw new StripeError(402, {
        type: 'card_error',
        code: 'invalid_cvc',
        param: 'cvc',
        message: 'Your card’s security code is invalid.',
      });
    const known = TEST_NUMBERS[number];
    const like = known
      ? CARDS[known]!
      : { brand: number.startsWith('5') ? 'mastercard' : 'visa', last4: number.slice(-4), outcome: 'succeed' as const };
    this.methods.set(id, like);
    return { id, object: 'payment_method', type: 'card', card: { brand: like.brand, last4: like.last4, exp_month: month, exp_year: year } };
  }

  private notFound(path: string) {
    return new StripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${path}).` });
  }

  private missing(kind: string, id: string) {
    return new StripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'id',
      message: `No such ${kind}: '${id}'`,
    });
  }

  private invalid(param: string, message: string) {
    return new StripeError(400, { type: 'invalid_request_error', code: 'parameter_invalid', param, message });
  }

  private view(pi: Obj, expand: string[]): Obj {
    const out = structuredClone(pi);
    if (expand.includes('latest_charge') && pi.latest_charge)
      out.latest_charge = structuredClone(this.charges.get(String(pi.latest_charge)) ?? null);
    return out;
  }

  private createIntent(p: Obj): Obj {
    const amount = Number(p.amount);
    if (!Number.isInteger(amount) || amount < 50) throw this.invalid('amount', 'Amount must be at least $0.50 usd');
    if (typeof p.currency !== 'string' || !/^[a-z]{3}$/.test(p.currency)) throw this.invalid('currency', 'Invalid currency.');
    const pi: Obj = {
      id: rid('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: p.currency,
      status: 'requires_payment_method',
      client_secret: '',
      metadata: (p.metadata as Obj) ?? {},
      description: p.description ?? null,
      shipping: p.shipping ?? null,
      payment_method: null,
      payment_method_types: Array.isArray(p.allowed_payment_method_types)
        ? p.allowed_payment_method_types
        : Array.isArray(p.payment_method_types)
          ? p.payment_method_types
          : ['card'],
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      created: now(),
      livemode: false,
    };
    pi.client_secret = `${String(pi.id)}_secret_${randomBytes(8).toString('hex')}`;
    this.intents.set(String(pi.id), pi);
    if (p.payment_method) pi.payment_method = p.payment_method;
    if (p.payment_method) pi.status = 'requires_confirmation';
    if (p.confirm === 'true') this.confirm(pi, p);
    return pi;
  }

  private confirm(pi: Obj, p: Obj): Obj {
    if (p.payment_method) pi.payment_method = p.payment_method;
    if (!['requires_payment_method', 'requires_confirmation'].includes(String(pi.status))) {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${String(pi.status)}, so it cannot be confirmed.`,
        payment_intent: this.view(pi, []),
      });
    }
    const card = this.cardOf(String(pi.payment_method));
    if (!card) throw this.missing('PaymentMethod', String(pi.payment_method));
    const types = (pi.payment_method_types as string[] | undefined) ?? ['card'];
    if (!types.includes(card.type ?? 'card')) {
      throw this.invalid(
        'payment_method',
        `The PaymentMethod provided (${card.type ?? 'card'}) is not allowed for this PaymentIntent. Please attach a PaymentMethod of one of the following types: ${types.join(', ')}.`,
      );
    }
    if (card.outcome === 'redirect') {
      if (!pi.shipping) throw this.invalid('shipping', 'Afterpay/Clearpay needs the shipping address on the PaymentIntent.');
      if (typeof p.return_url !== 'string')
        throw this.invalid(
          'return_url',
          'A return_url must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed.',
        );
      pi.status = 'requires_action';
      pi.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${this.url}/afterpay/${String(pi.id)}`, return_url: p.return_url },
      };
      this.emit('payment_intent.requires_action', pi);
    } else if (card.outcome === 'succeed') this.succeed(pi, card);
    else if (card.outcome === '3ds') {
      pi.status = 'requires_action';
      pi.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${this.url}/3ds/${String(pi.id)}`, return_url: p.return_url ?? null },
      };
      this.emit('payment_intent.requires_action', pi);
    } else {
      const err =
        card.outcome === 'funds'
          ? { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' }
          : { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      this.fail(pi, err);
      throw new StripeError(402, { type: 'card_error', ...err, payment_intent: this.view(pi, []) });
    }
    return pi;
  }

  private succeed(pi: Obj, card: Card): void {
    const ch: Obj = {
      id: rid('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: pi.amount,
      amount_refunded: 0,
      currency: pi.currency,
      payment_intent: pi.id,
      status: 'succeeded',
      paid: true,
      refunded: false,
      disputed: false,
      payment_method_details:
        card.type === 'afterpay_clearpay'
          ? { type: 'afterpay_clearpay', afterpay_clearpay: {} }
          : { type: 'card', card: { brand: card.brand, last4: card.last4 } },
      refunds: { object: 'list', data: [] },
      created: now(),
    };
    this.charges.set(String(ch.id), ch);
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.latest_charge = ch.id;
    pi.last_payment_error = null;
    this.emit('charge.succeeded', ch);
    this.emit('payment_intent.succeeded', pi);
    const invId = this.invoiceOfIntent.get(String(pi.id));
    if (invId) this.invoicePaid(this.invoices.get(invId)!, String(pi.payment_method));
  }

  private fail(pi: Obj, err: Obj): void {
    pi.status = 'requires_payment_method';
    pi.last_payment_error = { type: 'card_error', ...err };
    this.emit('payment_intent.payment_failed', pi);
    const invId = this.invoiceOfIntent.get(String(pi.id));
    const inv = invId ? this.invoices.get(invId) : undefined;
    if (inv) {
      this.emit('invoice.payment_failed', inv);
      const sub = this.subscriptions.get(
        String((inv.parent as Obj).subscription_details && ((inv.parent as Obj).subscription_details as Obj).subscription),
      )!;
      if (inv.billing_reason !== 'subscription_create' && sub.status === 'active') {
        sub.status = 'past_due';
        this.emit('customer.subscription.updated', sub);
      }
    }
  }

  private cancel(pi: Obj): Obj {
    if (['succeeded', 'canceled'].includes(String(pi.status))) {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `You cannot cancel this PaymentIntent because it has a status of ${String(pi.status)}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
      });
    }
    pi.status = 'canceled';
    pi.next_action = null;
    this.emit('payment_intent.canceled', pi);
    return pi;
  }

  private search(query: string, expand: string[]): Obj {
    const m = /^metadata\['([^']{1,200})'\]:'([^']{0,500})'$/.exec(query);
    if (!m) throw this.invalid('query', 'Invalid search query.');
    const data = [...this.intents.values()].filter((pi) => (pi.metadata as Obj)[m[1]!] === m[2]).map((pi) => this.view(pi, expand));
    return { object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' };
  }

  private createRefund(p: Obj): Obj {
    const pi = this.intents.get(String(p.payment_intent ?? ''));
    if (!pi) throw this.missing('payment_intent', String(p.payment_intent));
    const ch = pi.latest_charge ? this.charges.get(String(pi.latest_charge)) : undefined;
    if (!ch || pi.status !== 'succeeded') {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${String(pi.id)}) does not have a successful charge to refund.`,
      });
    }
    const left = Number(ch.amount) - Number(ch.amount_refunded);
    if (left <= 0)
      throw new StripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${String(ch.id)} has already been refunded.`,
      });
    const amount = p.amount === undefined ? left : Number(p.amount);
    if (!Number.isInteger(amount) || amount <= 0) throw this.invalid('amount', 'Invalid positive integer');
    if (amount > left) {
      throw this.invalid(
        'amount',
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      );
    }
    const re: Obj = {
      id: rid('re'),
      object: 'refund',
      amount,
      currency: ch.currency,
      charge: ch.id,
      payment_intent: pi.id,
      status: 'succeeded',
      created: now(),
    };
    this.refunds.set(String(re.id), re);
    ch.amount_refunded = Number(ch.amount_refunded) + amount;
    ch.refunded = ch.amount_refunded === ch.amount;
    (ch.refunds as { data: Obj[] }).data.unshift(re);
    this.emit('charge.refunded', ch);
    return re;
  }

  private createSession(p: Obj): Obj {
    const lines = Array.isArray(p.line_items) ? (p.line_items as Obj[]) : [];
    if (lines.length === 0) throw this.invalid('line_items', 'line_items is required in payment mode.');
    if (typeof p.success_url !== 'string') throw this.invalid('success_url', 'success_url is required.');
    let total = 0;
    if (p.mode === 'subscription') {
      if (!p.customer || !this.customers.has(String(p.customer))) throw this.missing('customer', String(p.customer));
      if (p.payment_intent_data)
        throw this.invalid('payment_intent_data', 'You can not pass `payment_intent_data` in `subscription` mode.');
    }
    for (const l of lines) {
      const pd = (l.price ? this.prices.get(String(l.price)) : l.price_data) as Obj | undefined;
      if (!pd) throw this.missing('price', String(l.price));
      if (p.mode === 'subscription' && !pd.recurring)
        throw this.invalid('line_items', 'In `subscription` mode every line item needs a recurring price.');
      total += Number(pd.unit_amount) * Number(l.quantity ?? 1);
    }
    const s: Obj = {
      id: rid('cs_test'),
      object: 'checkout.session',
      mode: p.mode ?? 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      currency: p.currency ?? (lines[0]?.price_data as Obj | undefined)?.currency ?? 'usd',
      client_reference_id: p.client_reference_id ?? null,
      customer_email: p.customer_email ?? null,
      metadata: p.metadata ?? {},
      payment_intent_data: p.payment_intent_data ?? null,
      payment_intent: null,
      line_items_sent: lines,
      customer: p.customer ?? null,
      subscription_data: p.subscription_data ?? null,
      subscription: null,
      invoice: null,
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      url: '',
      created: now(),
    };
    s.url = `${this.url}/pay/${String(s.id)}`;
    this.sessions.set(String(s.id), s);
    return s;
  }

  /** The shopper pays on the hosted Checkout page with a test card: the session completes. */
  paySession(sessionId: string, pm = 'pm_card_visa'): Obj {
    const s = this.sessions.get(sessionId)!;
    if (s.mode === 'subscription') {
      const items = (s.line_items_sent as Obj[]).map((l) => ({ ...l }));
      const sub = this.createSubscription({
        customer: s.customer,
        items,
        metadata: (s.subscription_data as Obj | null)?.metadata ?? {},
        payment_behavior: 'default_incomplete',
      });
      const inv = this.invoices.get(String(sub.latest_invoice))!;
      this.confirm(this.intents.get(this.intentOfInvoice(inv))!, { payment_method: pm });
      s.subscription = sub.id;
      s.invoice = inv.id;
      s.status = 'complete';
      s.payment_status = 'paid';
      this.emit('checkout.session.completed', s);
      return s;
    }
    const pi = this.createIntent({
      amount: String(s.amount_total),
      currency: String(s.currency),
      metadata: ((s.payment_intent_data as Obj | undefined)?.metadata as Obj) ?? (s.metadata as Obj),
    });
    this.confirm(pi, { payment_method: pm });
    s.payment_intent = pi.id;
    s.status = 'complete';
    s.payment_status = 'paid';
    this.emit('checkout.session.completed', s);
    return s;
  }

  // ---- Stripe Billing ------------------------------------------------------------------------------------

  /** The stand-in's clock (unix seconds), moved by advanceClock. */
  time(): number {
    return now() + this.clockOffset;
  }

  private updateIntent(pi: Obj, p: Obj): Obj {
    if (p.metadata) pi.metadata = { ...(pi.metadata as Obj), ...(p.metadata as Obj) };
    if (p.description !== undefined) pi.description = p.description;
    return pi;
  }

  private createProduct(p: Obj): Obj {
    if (typeof p.name !== 'string' || !p.name) throw this.invalid('name', 'Missing required param: name.');
    const prod: Obj = { id: rid('prod'), object: 'product', name: p.name, active: true, metadata: p.metadata ?? {}, created: now() };
    this.products.set(String(prod.id), prod);
    return prod;
  }

  private createPrice(p: Obj): Obj {
    if (!this.products.has(String(p.product))) throw this.missing('product', String(p.product));
    const amount = Number(p.unit_amount);
    if (!Number.isInteger(amount) || amount < 0) throw this.invalid('unit_amount', 'Invalid integer: unit_amount.');
    if (typeof p.currency !== 'string' || !/^[a-z]{3}$/.test(p.currency)) throw this.invalid('currency', 'Invalid currency.');
    const rec = p.recurring as Obj | undefined;
    if (rec && !['day', 'week', 'month', 'year'].includes(String(rec.interval)))
      throw this.invalid('recurring[interval]', 'Invalid recurring[interval]: must be one of day, week, month, or year');
    const price: Obj = {
      id: rid('price'),
      object: 'price',
      active: true,
      product: p.product,
      currency: p.currency,
      unit_amount: amount,
      type: rec ? 'recurring' : 'one_time',
      recurring: rec ? { interval: rec.interval, interval_count: Number(rec.interval_count ?? 1), usage_type: 'licensed' } : null,
      metadata: p.metadata ?? {},
      created: now(),
    };
    this.prices.set(String(price.id), price);
    return price;
  }

  private createCustomer(p: Obj): Obj {
    const c: Obj = { id: rid('cus'), object: 'customer', email: p.email ?? null, metadata: p.metadata ?? {}, created: now() };
    this.customers.set(String(c.id), c);
    return c;
  }

  /** start plus n intervals, the day clamped to the target month's last day (Stripe's calendar arithmetic). */
  private addInterval(start: number, interval: string, n: number): number {
    if (interval === 'day') return start + n * 86400;
    if (interval === 'week') return start + n * 7 * 86400;
    const d = new Date(start * 1000);
    const m = d.getUTCMonth() + (interval === 'year' ? 12 * n : n);
    const last = new Date(Date.UTC(d.getUTCFullYear(), m + 1, 0)).getUTCDate();
    return Math.floor(
      Date.UTC(d.getUTCFullYear(), m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000,
    );
  }

  private createSubscription(p: Obj): Obj {
    const customer = this.customers.get(String(p.customer));
    if (!customer) throw this.missing('customer', String(p.customer));
    if (p.payment_behavior !== 'default_incomplete')
      throw this.invalid('payment_behavior', 'The stand-in only starts subscriptions with payment_behavior=default_incomplete.');
    const items = Array.isArray(p.items) ? (p.items as Obj[]) : [];
    if (items.length === 0) throw this.invalid('items', 'Missing required param: items.');
    const t = this.time();
    const lines: Obj[] = items.map((it) => {
      let price: Obj | undefined;
      if (it.price) price = this.prices.get(String(it.price));
      else if (it.price_data) price = this.createPrice(it.price_data as Obj);
      if (!price) throw this.missing('price', String(it.price));
      if (!price.recurring)
        throw this.invalid(
          'items',
          'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
        );
      const rec = price.recurring as Obj;
      return {
        id: rid('si'),
        object: 'subscription_item',
        price: structuredClone(price),
        quantity: Number(it.quantity ?? 1),
        current_period_start: t,
        current_period_end: this.addInterval(t, String(rec.interval), Number(rec.interval_count)),
      };
    });
    const rec0 = (lines[0]!.price as Obj).recurring as Obj;
    if (
      lines.some(
        (l) =>
          JSON.stringify(((l.price as Obj).recurring as Obj).interval) !== JSON.stringify(rec0.interval) ||
          ((l.price as Obj).recurring as Obj).interval_count !== rec0.interval_count,
      )
    ) {
      throw this.invalid('items', 'Currency and interval fields must match across all plans on this subscription.');
    }
    const sub: Obj = {
      id: rid('sub'),
      object: 'subscription',
      customer: customer.id,
      status: 'incomplete',
      items: { object: 'list', data: lines },
      billing_cycle_anchor: t,
      start_date: t,
      created: t,
      cancel_at: p.cancel_at ? Number(p.cancel_at) : null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      default_payment_method: null,
      latest_invoice: null,
      metadata: p.metadata ?? {},
      description: p.description ?? null,
      currency: (lines[0]!.price as Obj).currency,
    };
    this.subscriptions.set(String(sub.id), sub);
    const inv = this.createInvoice(sub, 'subscription_create');
    this.emit('customer.subscription.created', sub);
    void inv;
    return sub;
  }

  private createInvoice(sub: Obj, reason: string): Obj {
    const lines = (sub.items as { data: Obj[] }).data;
    const amount = lines.reduce((n, l) => n + Number((l.price as Obj).unit_amount) * Number(l.quantity), 0);
    const inv: Obj = {
      id: rid('in'),
      object: 'invoice',
      customer: sub.customer,
      status: 'open',
      billing_reason: reason,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      currency: sub.currency,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      period_start: lines[0]!.current_period_start,
      period_end: lines[0]!.current_period_end,
      created: this.time(),
    };
    const pi = this.createIntent({
      amount: String(amount),
      currency: String(sub.currency),
      metadata: {},
      description: `Subscription ${String(sub.id)}`,
    });
    pi.customer = sub.customer;
    this.invoiceOfIntent.set(String(pi.id), String(inv.id));
    (inv as Obj & { _payments: Obj[] })._payments = [
      {
        id: rid('inpay'),
        object: 'invoice_payment',
        invoice: inv.id,
        is_default: true,
        amount_requested: amount,
        status: 'open',
        payment: { type: 'payment_intent', payment_intent: pi.id },
      },
    ];
    this.invoices.set(String(inv.id), inv);
    sub.latest_invoice = inv.id;
    return inv;
  }

  private intentOfInvoice(inv: Obj): string {
    return String(((inv._payments as Obj[])[0]!.payment as Obj).payment_intent);
  }

  /** An invoice as Stripe answers it: `payments` only when expanded (it is includable). */
  private invoiceView(inv: Obj, expand: string[]): Obj {
    const out = structuredClone(inv);
    delete out._payments;
    if (expand.includes('payments'))
      out.payments = {
        object: 'list',
        data: structuredClone(inv._payments as Obj[]),
        has_more: false,
        url: `/v1/invoices/${String(inv.id)}/payments`,
      };
    return out;
  }

  private subscriptionView(sub: Obj, expand: string[]): Obj {
    const out = structuredClone(sub);
    if (expand.some((e) => e === 'latest_invoice' || e.startsWith('latest_invoice.')) && sub.latest_invoice) {
      const inner = expand.filter((e) => e.startsWith('latest_invoice.')).map((e) => e.slice('latest_invoice.'.length));
      out.latest_invoice = this.invoiceView(this.invoices.get(String(sub.latest_invoice))!, inner);
    }
    return out;
  }

  private invoicePaid(inv: Obj, pm: string): void {
    inv.status = 'paid';
    inv.amount_paid = inv.amount_due;
    inv.amount_remaining = 0;
    (inv._payments as Obj[])[0]!.status = 'paid';
    const sub = this.subscriptions.get(String(((inv.parent as Obj).subscription_details as Obj).subscription))!;
    sub.default_payment_method = pm;
    if (sub.status === 'incomplete' || sub.status === 'past_due') sub.status = 'active';
    this.emit('invoice.paid', this.invoiceView(inv, []));
    this.emit('customer.subscription.updated', sub);
  }

  private updateSubscription(sub: Obj, p: Obj): Obj {
    if (sub.status === 'canceled')
      throw this.invalid('subscription', 'A canceled subscription can only update its cancellation_details and metadata.');
    if (p.cancel_at !== undefined) sub.cancel_at = p.cancel_at === '' ? null : Number(p.cancel_at);
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    if (p.metadata) sub.metadata = { ...(sub.metadata as Obj), ...(p.metadata as Obj) };
    this.emit('customer.subscription.updated', sub);
    return sub;
  }

  private cancelSubscription(sub: Obj): Obj {
    if (sub.status === 'canceled')
      throw new StripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such subscription: '${String(sub.id)}'`,
      });
    sub.status = 'canceled';
    sub.canceled_at = this.time();
    sub.ended_at = this.time();
    this.emit('customer.subscription.deleted', sub);
    return sub;
  }

  /**
   * The next billing period of an active (or past due) subscription: Stripe invoices it and charges the saved
   * payment method (or `pm`, e.g. 'pm_card_chargeDeclined' for a renewal that fails). Answers the invoice.
   */
  renew(subId: string, pm?: string): Obj {
    const sub = this.subscriptions.get(subId)!;
    if (sub.status !== 'active' && sub.status !== 'past_due') throw new Error(`subscription ${subId} is ${String(sub.status)}`);
    for (const l of (sub.items as { data: Obj[] }).data) {
      const rec = (l.price as Obj).recurring as Obj;
      l.current_period_start = l.current_period_end;
      l.current_period_end = this.addInterval(Number(l.current_period_start), String(rec.interval), Number(rec.interval_count));
    }
    const inv = this.createInvoice(sub, 'subscription_cycle');
    const pi = this.intents.get(this.intentOfInvoice(inv))!;
    try {
      this.confirm(pi, { payment_method: pm ?? sub.default_payment_method });
    } catch (e) {
      if (!(e instanceof StripeError)) throw e;
    }
    return this.invoiceView(inv, []);
  }

  /** Time passes at Stripe: a subscription whose cancel_at has come ends (customer.subscription.deleted). */
  advanceClock(seconds: number): void {
    this.clockOffset += seconds;
    for (const sub of this.subscriptions.values()) {
      if (sub.status !== 'canceled' && typeof sub.cancel_at === 'number' && sub.cancel_at <= this.time()) {
        sub.status = 'canceled';
        sub.canceled_at = sub.cancel_at;
        sub.ended_at = sub.cancel_at;
        this.emit('customer.subscription.deleted', sub);
      }
    }
  }

  /** The first PaymentIntent of a subscription (its first invoice's). */
  firstIntentOf(subId: string): Obj {
    const inv = [...this.invoices.values()].find(
      (i) => ((i.parent as Obj).subscription_details as Obj).subscription === subId && i.billing_reason === 'subscription_create',
    )!;
    return this.intents.get(this.intentOfInvoice(inv))!;
  }
}

/**
 * Tax: which of the owner's rules apply to an order and what they charge, as one pure function the server
 * and the checkout page both run (through computeCheckout).
 *
 * - A product has a tax class: standard, reduced, zero or exempt. A rule names the class it taxes
 *   (standard or reduced); zero-rated and exempt goods are never taxed (zero-rated ones are still
 *   reported as taxable at 0 %). A reduced product where no reduced rule applies is taxed as standard.
 * - Rules apply by location: every rule of the country without a region, plus the region's own (they add up).
 * - Shipping is taxed at the standard rules that say so.
 * - Prices either exclude tax (tax is added on top) or include it (the price the shopper sees stays
 *   fixed wherever the buyer is, and the tax of the buyer's location is extracted from it).
 * - Gift cards are money, never taxed.
 * Amounts are integer minor units, rates basis points (2000 = 20 %), each rule rounded half up once.
 */

export const TAX_CLASSES = ['standard', 'reduced', 'zero', 'exempt'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];
/** The classes a rule can tax (zero-rated and exempt goods carry no tax by definition). */
export const RULE_TAX_CLASSES = ['standard', 'reduced'] as const;
export type RuleTaxClass = (typeof RULE_TAX_CLASSES)[number];

export const isTaxClass = (v: unknown): v is TaxClass => typeof v === 'string' && (TAX_CLASSES as readonly string[]).includes(v);
/** A stored or sent class, standard when missing or unknown. */
export const taxClassOf = (v: unknown): TaxClass => (isTaxClass(v) ? v : 'standard');

export interface TaxRule {
  id: string;
  name: string;
  /** ISO country code. */
  country: string;
  /** Region (state, province) code; '' applies to the whole country. */
  region: string;
  rateBasisPoints: number;
  /** Whether shipping is taxed too (standard rules only). */
  appliesToShipping: boolean;
  /** The class of goods the rule taxes; standard when missing (rules saved before classes). */
  taxClass?: RuleTaxClass;
}

export interface TaxLocation {
  country: string;
  region?: string;
}

/** One line's share of the order, after its share of the discount. */
export interface TaxableLine {
  amountCents: number;
  taxClass: TaxClass;
}

export interface TaxInput {
  lines: readonly TaxableLine[];
  shippingCents: number;
  rules: readonly TaxRule[];
  location: TaxLocation | null | undefined;
  pricesIncludeTax: boolean;
}

export interface AppliedTaxRule extends TaxRule {
  taxCents: number;
}

export interface TaxResult {
  taxCents: number;
  /** True when the tax is part of the prices (not added to the total). */
  included: boolean;
  applied: AppliedTaxRule[];
}

const whole = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0);
const ruleClass = (r: TaxRule): RuleTaxClass => (r.taxClass === 'reduced' ? 'reduced' : 'standard');

/** The rules that apply to a location: the country's rules without a region, and the region's own. */
export function taxRulesFor(rules: readonly TaxRule[], location: TaxLocation | null | undefined): TaxRule[] {
  if (!location?.country) return [];
  const country = location.country.toUpperCase();
  const region = (location.region ?? '').trim().toUpperCase();
  return rules.filter((r) => r.country.toUpperCase() === country && (r.region === '' || r.region.toUpperCase() === region));
}

/** base x rate / divisor, rounded half up, in integers. */
const share = (base: number, rate: number, divisor: number) => Math.floor((2 * base * rate + divisor) / (2 * divisor));

/**
 * Splits an amount over weights in proportion, to the minor unit: the remainders go to the largest
 * fractions first, so the parts always add up to the amount.
 */
export function allocate(amountCents: number, weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + whole(w), 0);
  const amount = whole(amountCents);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * whole(w)) / total);
  const parts = exact.map(Math.floor);
  let left = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/** The tax of an order: each applicable rule on the goods of its class, plus shipping where it says so. */
export function computeTax(input: TaxInput): TaxResult {
  const here = taxRulesFor(input.rules, input.location);
  const standard = here.filter((r) => ruleClass(r) === 'standard');
  const reduced = here.filter((r) => ruleClass(r) === 'reduced');
  let standardGoods = 0;
  let reducedGoods = 0;
  for (const l of input.lines) {
    if (l.taxClass === 'standard' || (l.taxClass === 'reduced' && reduced.length === 0)) standardGoods += whole(l.amountCents);
    else if (l.taxClass === 'reduced') reducedGoods += whole(l.amountCents);
  }
  const shipping = whole(input.shippingCents);
  // Inclusive prices: the tax is the part of the price the stacked rates of its class make up.
  const divisorOf = (group: TaxRule[]) =>
    input.pricesIncludeTax ? 10000 + group.reduce((s, r) => s + whole(r.rateBasisPoints), 0) : 10000;
  const standardDivisor = divisorOf(standard);
  const reducedDivisor = divisorOf(reduced);
  const applied: AppliedTaxRule[] = here.map((r) => {
    const isReduced = ruleClass(r) === 'reduced';
    const base = isReduced ? reducedGoods : standardGoods + (r.appliesToShipping ? shipping : 0);
    return { ...r, taxClass: ruleClass(r), taxCents: share(base, whole(r.rateBasisPoints), isReduced ? reducedDivisor : standardDivisor) };
  });
  return { taxCents: applied.reduce((s, r) => s + r.taxCents, 0), included: input.pricesIncludeTax, applied };
}

// Countries whose sales tax goes by another name on receipts; everywhere else it is "Tax".
const VAT_COUNTRIES = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE GB NO CH IS LI MC ZA AE SA TR UA RS MX CL PH TH VN'.split(
    ' ',
  ),
);
const GST_COUNTRIES = new Set('AU NZ SG IN CA MY'.split(' '));

/** The tax's name for a country: "VAT", "GST" or "Tax". */
export function taxLabel(country: string | null | undefined): 'VAT' | 'GST' | 'Tax' {
  const c = (country ?? '').toUpperCase();
  if (VAT_COUNTRIES.has(c)) return 'VAT';
  if (GST_COUNTRIES.has(c)) return 'GST';
  return 'Tax';
}

/**
 * The tax part of what was refunded on an order, in proportion to the total: worked out on the running
 * refunded amount so partial refunds add up to the order's whole tax once everything is refunded.
 */
export function refundedTaxCents(taxCents: number, grandTotalCents: number, refundedCents: number): number {
  const total = whole(grandTotalCents);
  if (total === 0) return 0;
  const refunded = Math.min(whole(refundedCents), total);
  return refunded === total ? whole(taxCents) : share(refunded, whole(taxCents), total);
}

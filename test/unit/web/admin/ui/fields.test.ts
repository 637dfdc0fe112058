/**
 * The /config record forms (coupons, shipping, tax) check their values with the schemas the server checks
 * (core/store-rules.ts) through `schemaResolver`, and put a server's per-field messages on the fields on screen
 * (`serverErrorsOnFields`): a message for a part of a field (`countries.2`) lands on the field, one for no field
 * on screen goes on the form's root with the call's message.
 */
import { describe, expect, it } from 'vitest';
import type { FieldValues, ResolverOptions, UseFormReturn } from 'react-hook-form';
import { couponSchema, shippingOptionSchema, taxRuleSchema } from '../../../../../src/core/store-rules.js';
import { fieldFor, schemaResolver, serverErrorsOnFields, type Converted } from '../../../../../src/web/admin/ui/fields.js';
import { ApiError } from '../../../../../src/web/client/api.js';

const opts = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>;

describe('record forms share the server schema', () => {
  it('a shipping option: a bad country code is refused on the countries field with the server’s words; a good one gives the parsed body', async () => {
    const convert = (v: FieldValues): Converted => ({
      body: {
        name: v.name,
        kind: 'flat',
        priceCents: 599,
        countries: String(v.countries)
          .split(/[\s,]+/)
          .filter(Boolean),
      },
      errors: {},
    });
    const resolver = schemaResolver(
      shippingOptionSchema,
      () => convert,
      () => () => ['name', 'kind', 'priceCents', 'countries'],
    );
    const bad = await resolver({ name: 'Standard', countries: 'US, USA' }, undefined, opts);
    expect(bad.errors).toEqual({ countries: { type: 'validate', message: 'Countries are two-letter codes.' } });
    const good = await resolver({ name: ' Standard ', countries: 'US, CA' }, undefined, opts);
    expect(good.errors).toEqual({});
    expect(good.values).toMatchObject({
      name: 'Standard',
      kind: 'flat',
      priceCents: 599,
      countries: ['US', 'CA'],
      weightRates: [],
      enabled: true,
    });
  });

  it('a conversion message wins over the schema’s for the same field, and a message for a field not on screen goes on the root', async () => {
    const convert = (): Converted => ({
      body: { code: 'HALF', kind: 'fixed', amountCents: 0 },
      errors: { amountCents: 'Enter amounts such as 5.00.' },
    });
    const shown = ['code', 'kind', 'amountCents'];
    const r1 = await schemaResolver(
      couponSchema,
      () => convert,
      () => () => shown,
    )({}, undefined, opts);
    expect(r1.errors).toEqual({ amountCents: { type: 'validate', message: 'Enter amounts such as 5.00.' } });
    const r2 = await schemaResolver(
      couponSchema,
      () => convert,
      () => () => ['code', 'kind'],
    )({}, undefined, opts);
    expect(r2.errors).toEqual({ root: { type: 'validate', message: 'Enter amounts such as 5.00.' } });
  });

  it('a tax rate over 100% is refused with the words the server uses', async () => {
    const convert = (): Converted => ({ body: { name: 'Oregon', country: 'US', region: 'OR', rateBasisPoints: 15000 }, errors: {} });
    const r = await schemaResolver(
      taxRuleSchema,
      () => convert,
      () => () => ['name', 'country', 'region', 'rateBasisPoints'],
    )({}, undefined, opts);
    expect(r.errors).toEqual({ rateBasisPoints: { type: 'validate', message: 'Rate must be 100% or less.' } });
    expect(taxRuleSchema.safeParse({ name: 'Oregon', country: 'US', rateBasisPoints: 15000 }).error?.issues[0]?.message).toBe(
      'Rate must be 100% or less.',
    );
  });

  it('fieldFor finds the longest field a message key belongs to', () => {
    expect(fieldFor('weightRates.0.upToGrams', ['name', 'weightRates'])).toBe('weightRates');
    expect(fieldFor('countries', ['countries'])).toBe('countries');
    expect(fieldFor('countriesX', ['countries'])).toBeUndefined();
    expect(fieldFor('enabled', ['name'])).toBeUndefined();
  });
});

describe('serverErrorsOnFields', () => {
  function fakeForm() {
    const set: Array<[string, string, boolean]> = [];
    const form = {
      setError: (name: string, e: { message: string }, o?: { shouldFocus?: boolean }) => set.push([name, e.message, !!o?.shouldFocus]),
    } as unknown as UseFormReturn<FieldValues>;
    return { form, set };
  }
  const refusal = (errors: Record<string, string>) => new ApiError(400, 'countries.2: Countries are two-letter codes.', { errors });

  it('puts each message on the field it belongs to, focusing the first, and answers that all landed', () => {
    const { form, set } = fakeForm();
    expect(
      serverErrorsOnFields(form, refusal({ 'countries.2': 'Countries are two-letter codes.', name: 'Name is required.' }), [
        'name',
        'countries',
      ]),
    ).toBe(true);
    expect(set).toEqual([
      ['countries', 'Countries are two-letter codes.', true],
      ['name', 'Name is required.', false],
    ]);
  });

  it('a message with no field on screen puts the call’s message on the root', () => {
    const { form, set } = fakeForm();
    expect(serverErrorsOnFields(form, refusal({ enabled: 'Expected boolean.' }), ['name'])).toBe(false);
    expect(set).toEqual([['root', 'countries.2: Countries are two-letter codes.', false]]);
  });

  it('without a list of fields it keeps the keys as they are (the site settings and team forms)', () => {
    const { form, set } = fakeForm();
    expect(serverErrorsOnFields(form, refusal({ 'location.addressLine1': 'Too long.' }))).toBe(true);
    expect(set).toEqual([['location.addressLine1', 'Too long.', true]]);
    expect(serverErrorsOnFields(fakeForm().form, new Error('offline'))).toBe(false);
  });
});

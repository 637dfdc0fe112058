/**
 * The checkout page's tax parts: the billing address (a digital-only order's tax goes by its country;
 * an order that ships uses the shipping address unless the shopper says otherwise) and the tax rows of
 * the totals ("VAT £4.00" added, or "incl. £4.00 VAT" under a tax-inclusive total).
 */
import type { ReactNode } from 'react';
import type { Address as PostalAddress } from '../../core/api/checkout.js';
import type { AddressFormat, CountryOption } from '../../core/api/common.js';
import type { CheckoutTotals } from '../../core/checkout.js';
import { taxLabel } from '../../core/tax.js';
import { address as addressMessages, taxMessages } from '../../core/messages.js';
import { AddressFields, useAddressFormat } from '../shared/AddressFields.js';
import { CountryOptions } from '../shared/CountryOptions.js';

type Address = Partial<PostalAddress>;

/** The tax's name for where it is due, else for the shop's own country. */
export const taxName = (country: string | undefined, shopCountry: string) => taxMessages.labels[taxLabel(country || shopCountry)];

export function BillingSection(props: {
  ships: boolean;
  same: boolean;
  onSame: (same: boolean) => void;
  billing: Address;
  onBilling: (next: Address) => void;
  errors: Record<string, string>;
  countries: readonly CountryOption[];
  firstFormat: AddressFormat;
}) {
  const { ships, same, billing, errors } = props;
  const format = useAddressFormat(props.firstFormat, billing.country || props.firstFormat.country);
  const errs = Object.fromEntries(
    Object.entries(errors).flatMap(([k, v]) => (k.startsWith('billingAddress.') ? [[k.slice('billingAddress.'.length), v]] : [])),
  );
  const setPart = (k: keyof PostalAddress, v: string) =>
    props.onBilling(k === 'country' && v !== billing.country ? { ...billing, country: v, region: '' } : { ...billing, [k]: v });
  if (!ships) {
    // A digital-only order asks only for the country (its tax goes by it).
    return (
      <section aria-labelledby="checkout-billing">
        <h2 id="checkout-billing">Billing address</h2>
        <div className="checkout-field">
          <label htmlFor="bill-country">{addressMessages.COUNTRY}</label>
          <select
            id="bill-country"
            name="billingCountry"
            autoComplete="billing country"
            required
            value={billing.country ?? ''}
            aria-invalid={errs.country ? true : undefined}
            aria-describedby={errs.country ? 'bill-country-error' : undefined}
            onChange={(e) => setPart('country', e.target.value)}
          >
            <CountryOptions countries={props.countries} />
          </select>
          {errs.country && (
            <p id="bill-country-error" className="checkout-field__error">
              {errs.country}
            </p>
          )}
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="checkout-billing">
      <h2 id="checkout-billing">Billing address</h2>
      <label className="checkout-check">
        <input type="checkbox" name="billingSameAsShipping" value="true" checked={same} onChange={(e) => props.onSame(e.target.checked)} />
        Same as the shipping address
      </label>
      {!same && (
        <AddressFields
          format={format}
          countries={props.countries}
          values={billing}
          onChange={setPart}
          errors={errs}
          idPrefix="bill"
          cls="checkout"
          section="billing"
          namePrefix="billing"
        />
      )}
    </section>
  );
}

/** The tax rows of the totals table: before the total when tax is added, under it when prices include it. */
export function TaxRow({ totals, label, f }: { totals: CheckoutTotals; label: string; f: (c: number) => string }): ReactNode {
  if (totals.taxIncluded) return null;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td data-test="tax">{f(totals.taxCents)}</td>
    </tr>
  );
}

export function TaxIncludedRow({ totals, label, f }: { totals: CheckoutTotals; label: string; f: (c: number) => string }): ReactNode {
  if (!totals.taxIncluded) return null;
  return (
    <tr className="checkout-totals__tax-included">
      <td colSpan={2} data-test="tax-included">
        {taxMessages.included(f(totals.taxCents), label)}
      </td>
    </tr>
  );
}

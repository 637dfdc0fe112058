/**
 * An address form laid out in the chosen country's format (core/address-format.ts): the country first, then
 * its parts in the country's order with its labels (ZIP code, Postcode, PIN code; State, Province,
 * Prefecture), a list of its subdivisions where it has one, and only the parts it has. The server renders it
 * with the first country's format; when the shopper picks another country the form loads that country's
 * format (GET /api/address-format/:country) and lays itself out again, so no country's data is in the bundle.
 * Shared by the checkout, the account's saved addresses and the owner's business address in /config.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { addressFormRows, addressLabel, isRequired, type AddressFormat, type AddressPart } from '../../core/address-format.js';
import { address as messages } from '../../core/messages.js';
import type { AddressFormatAnswer, CountryOption } from '../../core/api/common.js';
import { CountryOptions } from './CountryOptions.js';

export type AddressValues = Partial<Record<AddressPart | 'country', string>>;

const AUTOCOMPLETE: Record<AddressPart, string> = {
  name: 'name',
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  region: 'address-level1',
  postalCode: 'postal-code',
};

/** The id part of each field (the checkout's ids predate this form: addr-postal). */
const ID_PART: Record<AddressPart | 'country', string> = {
  name: 'name',
  line1: 'line1',
  line2: 'line2',
  city: 'city',
  region: 'region',
  postalCode: 'postal',
  country: 'country',
};

/**
 * The format of `country`: the one the server rendered with, else loaded once per country. Until a new
 * country's format arrives the form keeps the last one (and the server checks what is posted either way).
 */
export function useAddressFormat(initial: AddressFormat, country: string): AddressFormat {
  const cache = useRef(new Map<string, AddressFormat>([[initial.country, initial]]));
  const [format, setFormat] = useState(initial);
  useEffect(() => {
    if (!country || country === format.country) return;
    const known = cache.current.get(country);
    if (known) return setFormat(known);
    let live = true;
    void fetch(`/api/address-format/${encodeURIComponent(country)}`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<AddressFormatAnswer>) : null))
      .then((a) => {
        if (!a) return;
        cache.current.set(a.format.country, a.format);
        if (live) setFormat(a.format);
      })
      .catch(() => {
        /* offline: the form keeps its layout; the server checks the address against the country posted */
      });
    return () => {
      live = false;
    };
  }, [country, format.country]);
  return format;
}

export interface AddressFieldsProps {
  format: AddressFormat;
  countries: readonly CountryOption[];
  values: AddressValues;
  onChange: (part: AddressPart | 'country', value: string) => void;
  /** Field errors by part ('country' too). */
  errors?: Partial<Record<string, string>>;
  /** The id of each control is `${idPrefix}-${part}`. */
  idPrefix: string;
  /** The class prefix of the page's form styles: `${cls}-field`, `${cls}-field__error`. */
  cls: string;
  /** Autocomplete section ('shipping', 'billing'); none for a business address. */
  section?: string;
  /** The post field names: the part's name, or `${namePrefix}${Part}` when given. */
  namePrefix?: string;
  /** The name part's label, when it is not a person's full name (the business address: Business name). */
  nameLabel?: string;
  /** What follows the country select (the checkout's no-JavaScript button that redraws the form for it). */
  afterCountry?: ReactNode;
}

function fieldName(prefix: string | undefined, part: string): string {
  return prefix ? `${prefix}${part[0]!.toUpperCase()}${part.slice(1)}` : part;
}

export function AddressFields({
  format,
  countries,
  values,
  onChange,
  errors = {},
  idPrefix,
  cls,
  section,
  namePrefix,
  nameLabel,
  afterCountry,
}: AddressFieldsProps) {
  const id = (p: AddressPart | 'country') => `${idPrefix}-${ID_PART[p]}`;
  const auto = (p: AddressPart | 'country') => (section ? `${section} ${p === 'country' ? 'country' : AUTOCOMPLETE[p]}` : undefined);
  const errorOf = (p: AddressPart | 'country') => errors[p];
  const described = (p: AddressPart | 'country') => (errorOf(p) ? `${id(p)}-error` : undefined);
  const errorText = (p: AddressPart | 'country') =>
    errorOf(p) ? (
      <p id={`${id(p)}-error`} className={`${cls}-field__error`}>
        {errorOf(p)}
      </p>
    ) : null;

  const control = (p: AddressPart) => {
    const label = p === 'name' && nameLabel ? nameLabel : addressLabel(format, p);
    const required = isRequired(format, p) && p !== 'line2' && !(p === 'name' && nameLabel);
    const common = {
      id: id(p),
      name: fieldName(namePrefix, p),
      autoComplete: auto(p),
      required,
      'aria-invalid': errorOf(p) ? true : undefined,
      'aria-describedby': described(p),
    } as const;
    const value = values[p] ?? '';
    const list = p === 'region' ? format.subdivisions : null;
    return (
      <div className={`${cls}-field`} key={p}>
        <label htmlFor={id(p)}>{label}</label>
        {list ? (
          <select {...common} value={list.some(([c]) => c === value) ? value : ''} onChange={(e) => onChange(p, e.target.value)}>
            <option value="">{messages.choose(format.labels.region)}</option>
            {list.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        ) : (
          <input {...common} type="text" value={value} onChange={(e) => onChange(p, e.target.value)} />
        )}
        {errorText(p)}
      </div>
    );
  };

  return (
    <>
      <div className={`${cls}-field`}>
        <label htmlFor={id('country')}>{messages.COUNTRY}</label>
        <select
          id={id('country')}
          name={fieldName(namePrefix, 'country')}
          autoComplete={auto('country')}
          required
          value={values.country ?? ''}
          aria-invalid={errorOf('country') ? true : undefined}
          aria-describedby={described('country')}
          onChange={(e) => onChange('country', e.target.value)}
        >
          <CountryOptions countries={countries} />
        </select>
        {errorText('country')}
        {afterCountry}
      </div>
      {addressFormRows(format).map((row) =>
        row.length === 1 ? (
          control(row[0]!)
        ) : (
          <div className="address-row" key={row.join('-')}>
            {row.map(control)}
          </div>
        ),
      )}
    </>
  );
}

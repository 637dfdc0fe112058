/**
 * Countries picked from a list, never typed as codes: a filter box over every country (named by the server in the
 * shop's language), each a checkbox, and the chosen ones summed up above. The value is the form field's
 * comma-separated codes, so a form converts it as before.
 */
import { useId, useMemo, useState } from 'react';
import type { FieldPath, FieldValues, PathValue, UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { CountryOption } from '../../../core/api/common.js';
import { api } from '../../client/api.js';
import { describedBy, errorOf, FieldMessages } from './fields.js';

const codesOf = (v: unknown) =>
  String(v ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((c) => c.toUpperCase());

/** Every country, named by the server in the shop's language; loaded once per visit to /config. */
export const useCountries = () =>
  useQuery({
    queryKey: ['countries'],
    queryFn: () => api<{ countries: CountryOption[] }>('GET', '/api/checkout/admin/countries'),
    staleTime: Infinity,
  });

export function CountryPicker<T extends FieldValues, C = unknown, O = T>({
  form,
  name,
  legend,
  emptyMeans,
}: {
  form: UseFormReturn<T, C, O>;
  name: FieldPath<T>;
  legend: string;
  /** What no country chosen means, said as the hint ("Everywhere"). */
  emptyMeans: string;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const countries = useCountries();
  const chosen = codesOf(form.watch(name));
  const names = useMemo(() => new Map(countries.data?.countries ?? []), [countries.data]);
  const needle = filter.trim().toLocaleLowerCase();
  const shown = (countries.data?.countries ?? []).filter(
    ([code, label]) => needle === '' || label.toLocaleLowerCase().includes(needle) || code.toLowerCase() === needle,
  );
  const err = errorOf(form, name);
  const summary = chosen.length === 0 ? emptyMeans : chosen.map((c) => names.get(c) ?? c).join(', ');
  const toggle = (code: string, on: boolean) => {
    const next = on ? [...chosen, code] : chosen.filter((c) => c !== code);
    form.setValue(name, next.join(', ') as PathValue<T, FieldPath<T>>, { shouldDirty: true });
  };
  return (
    <fieldset className="a-country-picker" aria-describedby={describedBy(id, summary, err)}>
      <legend>{legend}</legend>
      <FieldMessages id={id} hint={`Chosen: ${summary}`} error={err} />
      <label htmlFor={`${id}-filter`}>Find a country</label>
      <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <ul className="a-country-picker__list" aria-label={legend}>
        {shown.map(([code, label]) => (
          <li key={code}>
            <label>
              <input type="checkbox" checked={chosen.includes(code)} onChange={(e) => toggle(code, e.target.checked)} /> {label}
            </label>
          </li>
        ))}
      </ul>
      {countries.isError ? <p className="a-field__error">The country list could not be loaded.</p> : null}
    </fieldset>
  );
}

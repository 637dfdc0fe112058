/**
 * What a zone covers, picked from lists: whole countries (a filter box over every country), and regions of a
 * country (its subdivisions from the address data, loaded when the country is chosen). Never typed as codes.
 */
import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AddressFormat } from '../../../../core/address-format.js';
import { api } from '../../../client/api.js';
import { useCountries } from '../../ui/CountryPicker.js';

interface Places {
  countries: string[];
  regions: Array<{ country: string; region: string }>;
}

export function PlacesPicker({ value, onChange, error }: { value: Places; onChange: (p: Places) => void; error?: string }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const [regionCountry, setRegionCountry] = useState('');
  const countries = useCountries();
  const list = countries.data?.countries ?? [];
  const names = useMemo(() => new Map(list), [list]);
  const needle = filter.trim().toLocaleLowerCase();
  const shown = list.filter(([, label]) => needle === '' || label.toLocaleLowerCase().includes(needle));
  const format = useQuery({
    queryKey: ['address-format', regionCountry],
    queryFn: () => api<{ format: AddressFormat }>('GET', `/api/address-format/${regionCountry}`),
    enabled: regionCountry !== '',
    staleTime: Infinity,
  });
  const subdivisions = format.data?.format.subdivisions ?? null;
  const toggleCountry = (code: string, on: boolean) =>
    onChange({ ...value, countries: on ? [...value.countries, code] : value.countries.filter((c) => c !== code) });
  const hasRegion = (r: string) => value.regions.some((x) => x.country === regionCountry && x.region === r);
  const toggleRegion = (r: string, on: boolean) =>
    onChange({
      ...value,
      regions: on
        ? [...value.regions, { country: regionCountry, region: r }]
        : value.regions.filter((x) => !(x.country === regionCountry && x.region === r)),
    });
  const chosen = [
    ...value.countries.map((c) => names.get(c) ?? c),
    ...value.regions.map((r) => `${r.region} (${names.get(r.country) ?? r.country})`),
  ];
  return (
    <fieldset className="a-country-picker" aria-describedby={`${id}-chosen`}>
      <legend>Countries and regions</legend>
      <p id={`${id}-chosen`} className="a-muted">
        Chosen: {chosen.length ? chosen.join(', ') : 'none yet'}
      </p>
      {error ? <p className="a-field__error">{error}</p> : null}
      <label htmlFor={`${id}-filter`}>Find a country</label>
      <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <ul className="a-country-picker__list" aria-label="Whole countries">
        {shown.map(([code, label]) => (
          <li key={code}>
            <label>
              <input type="checkbox" checked={value.countries.includes(code)} onChange={(e) => toggleCountry(code, e.target.checked)} />{' '}
              {label}
            </label>
          </li>
        ))}
      </ul>
      <label htmlFor={`${id}-regions-of`}>Only some regions of</label>
      <select id={`${id}-regions-of`} value={regionCountry} onChange={(e) => setRegionCountry(e.target.value)}>
        <option value="">Choose a country</option>
        {list.map(([code, label]) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </select>
      {regionCountry && subdivisions === null && format.isSuccess ? (
        <p className="a-muted">{names.get(regionCountry)} has no regions to choose from: choose the whole country above.</p>
      ) : null}
      {subdivisions && (
        <ul className="a-country-picker__list" aria-label={`Regions of ${names.get(regionCountry) ?? regionCountry}`}>
          {subdivisions.map(([code, label]) => (
            <li key={code}>
              <label>
                <input type="checkbox" checked={hasRegion(code)} onChange={(e) => toggleRegion(code, e.target.checked)} /> {label}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

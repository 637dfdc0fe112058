/** /config/tax: whether prices include tax, and tax rules by country, region and class; add, edit, delete. */
import { taxRuleSchema, type TaxRuleBody } from '../../../core/store-rules.js';
import { RecordForm, RecordTable, useRecordForm, type RecordFormProps } from '../ui/records.js';
import { checkoutUrls, saveRecord, useTaxRules } from './queries.js';
import { CheckboxField, Field, SelectField, type Converted } from '../ui/fields.js';
import { useCountries } from '../ui/CountryPicker.js';
import { PageHeader, useToast } from '../ui/design.js';
import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import type { TaxSettings } from '../../../core/store-rules.js';
import { taxMessages } from '../../../core/messages.js';
import type { TaxRule } from '../../../core/checkout.js';

/** A tax rule as the screen lists it: the one checkout applies. */
export type Rule = TaxRule;

/** '8.25' (percent) -> 825 basis points; null when it is not a percentage with up to 2 decimals. */
function basisPoints(text: string): number | null {
  if (text.length > 12) return null;
  const m = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || 0);
}

/** The form's fields, under the server's names (the rate as the percentage typed, 8.25). */
interface Values {
  name: string;
  country: string;
  region: string;
  rateBasisPoints: string;
  appliesToShipping: boolean;
  taxClass: 'standard' | 'reduced';
}
const EMPTY: Values = { name: '', country: '', region: '', rateBasisPoints: '', appliesToShipping: false, taxClass: 'standard' };
const RATE = 'Enter the rate as a percentage, such as 8.25.';
const SHOWN = ['name', 'country', 'region', 'rateBasisPoints', 'appliesToShipping', 'taxClass'];
const CLASS_LABELS = { standard: 'Standard', reduced: 'Reduced' } as const;

/** The request body (codes in capitals), or the rate's message when it is not a percentage. */
function convert(v: Values): Converted {
  const bp = basisPoints(v.rateBasisPoints);
  return {
    body: {
      name: v.name,
      country: v.country.trim().toUpperCase(),
      region: v.region.trim().toUpperCase(),
      rateBasisPoints: bp ?? 0,
      appliesToShipping: v.appliesToShipping,
      taxClass: v.taxClass,
    },
    errors: bp === null ? { rateBasisPoints: RATE } : {},
  };
}

const valuesOf = (r: Rule): Values => ({
  name: r.name,
  country: r.country,
  region: r.region,
  rateBasisPoints: String(r.rateBasisPoints / 100),
  appliesToShipping: r.appliesToShipping,
  taxClass: r.taxClass === 'reduced' ? 'reduced' : 'standard',
});

/** The add form and each row's edit form: the same fields, checked by the server's schema, the server's messages beside them. */
function RuleForm({ label, submit, initial, onSave, onCancel }: RecordFormProps<Values, TaxRuleBody>) {
  const state = useRecordForm({ initial, empty: EMPTY, schema: taxRuleSchema, convert, shown: () => SHOWN, onSave, onCancel });
  const { form } = state;
  const countries = useCountries();
  return (
    <RecordForm label={label} submit={submit} state={state}>
      <Field form={form} name="name" label="Name" autoFocus={!!onCancel} />
      {countries.data ? (
        <SelectField
          form={form}
          name="country"
          label="Country"
          options={[{ value: '', label: 'Choose a country' }, ...countries.data.countries.map(([value, label]) => ({ value, label }))]}
        />
      ) : (
        <p className="a-muted">{countries.isError ? 'The country list could not be loaded.' : 'Loading countries…'}</p>
      )}
      <Field form={form} name="region" label="Region code (blank for the whole country)" />
      <Field form={form} name="rateBasisPoints" label="Rate (%)" inputMode="decimal" />
      <SelectField
        form={form}
        name="taxClass"
        label="Products it taxes"
        options={[
          { value: 'standard', label: 'Standard-rate products' },
          { value: 'reduced', label: 'Reduced-rate products' },
        ]}
      />
      <CheckboxField form={form} name="appliesToShipping" label="Tax shipping too" />
    </RecordForm>
  );
}

/** The shop-wide switch: are the prices the owner enters tax-inclusive (UK, EU, AU) or is tax added (US)? */
function PricesIncludeTax() {
  const id = useId();
  const client = useQueryClient();
  const toast = useToast();
  const url = '/api/checkout/admin/tax-settings';
  const settings = useQuery({ queryKey: ['tax-settings'], queryFn: () => api<TaxSettings>('GET', url) });
  const save = useMutation({
    mutationFn: (pricesIncludeTax: boolean) => api<TaxSettings>('PUT', url, { pricesIncludeTax }),
    // The box shows the owner's choice at once; a refusal puts the stored one back.
    onMutate: (pricesIncludeTax) => {
      const before = client.getQueryData<TaxSettings>(['tax-settings']);
      if (before) client.setQueryData(['tax-settings'], { ...before, pricesIncludeTax });
      return before;
    },
    onError: (_e, _v, before) => {
      if (before) client.setQueryData(['tax-settings'], before);
    },
    onSuccess: (s) => {
      client.setQueryData(['tax-settings'], s);
      toast(s.pricesIncludeTax ? taxMessages.PRICES_INCLUDE_TAX_SAVED : taxMessages.PRICES_EXCLUDE_TAX_SAVED);
    },
  });
  return (
    <section className="a-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Prices and tax</h2>
      {settings.data ? (
        <label className="a-check">
          <input
            type="checkbox"
            checked={settings.data.pricesIncludeTax}
            aria-describedby={`${id}-hint`}
            onChange={(e) => save.mutate(e.target.checked)}
          />{' '}
          {taxMessages.PRICES_INCLUDE_TAX}
        </label>
      ) : (
        <p className="a-muted">{settings.isError ? settings.error.message : 'Loading…'}</p>
      )}
      <p id={`${id}-hint`} className="a-muted">
        {taxMessages.PRICES_INCLUDE_TAX_HINT}
      </p>
      {save.isError ? <p role="alert">{save.error.message}</p> : null}
    </section>
  );
}

export function TaxScreen() {
  const records = useTaxRules();
  const { error, load } = records;
  return (
    <>
      <PageHeader
        title="Tax"
        description="Rules apply by the shipping address, or the billing address for orders with nothing to ship: every rule for the country without a region, plus the region's own. A rule taxes standard- or reduced-rate products; zero-rated and exempt products carry no tax."
      />
      <PricesIncludeTax />
      <RecordTable
        caption="Tax rules"
        columns={['Name', 'Country', 'Region', 'Products', 'Rate', 'Shipping taxed']}
        loadingLabel="Loading tax rules"
        emptyTitle="No tax rules yet"
        empty="Orders carry no tax until you add a rule below."
        records={records}
        nameOf={(r) => r.name}
        cells={(r) => (
          <>
            <td>{r.name}</td>
            <td>{r.country}</td>
            <td>{r.region || 'All'}</td>
            <td>{CLASS_LABELS[r.taxClass === 'reduced' ? 'reduced' : 'standard']}</td>
            <td>{(r.rateBasisPoints / 100).toFixed(2)}%</td>
            <td>{r.appliesToShipping ? 'Yes' : 'No'}</td>
          </>
        )}
        editForm={(r, close) => (
          <RuleForm
            label={`Edit ${r.name}`}
            submit="Save"
            initial={valuesOf(r)}
            onCancel={close}
            onSave={async (body) => {
              await saveRecord(checkoutUrls.tax, r.id, body);
              await load();
              close();
            }}
          />
        )}
      />
      <h2>Add a tax rule</h2>
      <RuleForm
        label="Add a tax rule"
        submit="Add tax rule"
        initial={EMPTY}
        onSave={async (body) => {
          await saveRecord(checkoutUrls.tax, null, body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

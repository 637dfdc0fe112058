/** /config/tax: tax rules by country and region; add, edit, delete. */
import { taxRuleSchema, type TaxRuleBody } from '../../../core/store-rules.js';
import { RecordForm, RecordTable, useRecordForm, type RecordFormProps } from '../ui/records.js';
import { checkoutUrls, saveRecord, useTaxRules } from './queries.js';
import { CheckboxField, Field, SelectField, type Converted } from '../ui/fields.js';
import { useCountries } from '../ui/CountryPicker.js';
import { PageHeader } from '../ui/design.js';
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
}
const EMPTY: Values = { name: '', country: '', region: '', rateBasisPoints: '', appliesToShipping: false };
const RATE = 'Enter the rate as a percentage, such as 8.25.';
const SHOWN = ['name', 'country', 'region', 'rateBasisPoints', 'appliesToShipping'];

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
      <CheckboxField form={form} name="appliesToShipping" label="Tax shipping too" />
    </RecordForm>
  );
}

export function TaxScreen() {
  const records = useTaxRules();
  const { error, load } = records;
  return (
    <>
      <PageHeader
        title="Tax"
        description="Rules apply by the shipping address: every rule for the country without a region, plus the region's own. Orders that need no shipping carry no tax."
      />
      <RecordTable
        caption="Tax rules"
        columns={['Name', 'Country', 'Region', 'Rate', 'Shipping taxed']}
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

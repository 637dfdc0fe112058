/** /config/tax: tax rules by country and region; add, edit, delete. */
import { api } from '../../client/api.js';
import { taxRuleSchema, type TaxRuleBody } from '../../../core/store-rules.js';
import { RecordForm, useRecordForm, useRecordList, useRowEditing, type RecordFormProps } from '../ui/records.js';
import { CheckboxField, Field, type Converted } from '../ui/fields.js';
import { EmptyState, PageHeader, Skeleton } from '../ui/design.js';

interface Rule {
  id: string;
  name: string;
  country: string;
  region: string;
  rateBasisPoints: number;
  appliesToShipping: boolean;
}

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
    body: { name: v.name, country: v.country.trim().toUpperCase(), region: v.region.trim().toUpperCase(), rateBasisPoints: bp ?? 0, appliesToShipping: v.appliesToShipping },
    errors: bp === null ? { rateBasisPoints: RATE } : {},
  };
}

const valuesOf = (r: Rule): Values => ({ name: r.name, country: r.country, region: r.region, rateBasisPoints: String(r.rateBasisPoints / 100), appliesToShipping: r.appliesToShipping });

/** The add form and each row's edit form: the same fields, checked by the server's schema, the server's messages beside them. */
function RuleForm({ label, submit, initial, onSave, onCancel }: RecordFormProps<Values, TaxRuleBody>) {
  const state = useRecordForm({ initial, empty: EMPTY, schema: taxRuleSchema, convert, shown: () => SHOWN, onSave, onCancel });
  const { form } = state;
  return (
    <RecordForm label={label} submit={submit} state={state}>
      <Field form={form} name="name" label="Name" autoFocus={!!onCancel} />
      <Field form={form} name="country" label="Country code" placeholder="US" />
      <Field form={form} name="region" label="Region code (blank for the whole country)" />
      <Field form={form} name="rateBasisPoints" label="Rate (%)" inputMode="decimal" />
      <CheckboxField form={form} name="appliesToShipping" label="Tax shipping too" />
    </RecordForm>
  );
}

export function TaxScreen() {
  const { list, loading, error, load, remove } = useRecordList<Rule>('/api/checkout/admin/tax-rules', 'taxRules');
  const { close, rowButtons, editRow } = useRowEditing();
  return (
    <>
      <PageHeader title="Tax" description="Rules apply by the shipping address: every rule for the country without a region, plus the region's own. Orders that need no shipping carry no tax." />
      {loading ? (
        <Skeleton lines={3} label="Loading tax rules" />
      ) : list.length === 0 ? (
        <EmptyState title="No tax rules yet">Orders carry no tax until you add a rule below.</EmptyState>
      ) : (
        <table className="admin-table" aria-label="Tax rules">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Country</th>
              <th scope="col">Region</th>
              <th scope="col">Rate</th>
              <th scope="col">Shipping taxed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.flatMap((r) => [
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.country}</td>
                <td>{r.region || 'All'}</td>
                <td>{(r.rateBasisPoints / 100).toFixed(2)}%</td>
                <td>{r.appliesToShipping ? 'Yes' : 'No'}</td>
                <td>
                  {rowButtons(r.id, r.name, remove)}
                </td>
              </tr>,
              editRow(r.id, 6, () => (
                <RuleForm
                  label={`Edit ${r.name}`}
                  submit="Save"
                  initial={valuesOf(r)}
                  onCancel={() => close(r.id)}
                  onSave={async (body) => {
                    await api('PUT', `/api/checkout/admin/tax-rules/${r.id}`, body);
                    await load();
                    close(r.id);
                  }}
                />
              )),
            ])}
          </tbody>
        </table>
      )}
      <h2>Add a tax rule</h2>
      <RuleForm
        label="Add a tax rule"
        submit="Add tax rule"
        initial={EMPTY}
        onSave={async (body) => {
          await api('POST', '/api/checkout/admin/tax-rules', body);
          await load();
        }}
      />
      {error && <p role="alert">{error}</p>}
    </>
  );
}

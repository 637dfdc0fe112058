/** /config/tax: tax rules by country and region; add, edit, delete. */
import { api } from '../client/api.js';
import { Field, RecordForm, useRecordForm, useRecordList, useRowEditing, type Checked } from './ui.js';
import { EmptyState, PageHeader, Skeleton } from './design.js';

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
  const m = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || 0);
}

interface Values {
  name: string;
  country: string;
  region: string;
  rate: string;
  shipping: boolean;
}
const EMPTY: Values = { name: '', country: '', region: '', rate: '', shipping: false };
const RATE = 'Enter the rate as a percentage, such as 8.25.';
const SHOWN = ['name', 'country', 'region', 'rateBasisPoints'];

/** The request body, or the rate's message when it is not a percentage. */
function check(v: Values): Checked {
  const bp = basisPoints(v.rate);
  if (bp === null) return { errors: { message: RATE, fields: { rateBasisPoints: RATE } } };
  return { body: { name: v.name, country: v.country, region: v.region, rateBasisPoints: bp, appliesToShipping: v.shipping } };
}

const valuesOf = (r: Rule): Values => ({ name: r.name, country: r.country, region: r.region, rate: String(r.rateBasisPoints / 100), shipping: r.appliesToShipping });

/** The add form and each row's edit form: the same fields, the server's messages beside them. */
function RuleForm({ label, submit, initial, onSave, onCancel }: { label: string; submit: string; initial: Values; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel?: () => void }) {
  const state = useRecordForm({ initial, empty: EMPTY, check, onSave, onCancel });
  const { v, set, err } = state;

  return (
    <RecordForm label={label} submit={submit} state={state} shown={SHOWN}>
      <Field label="Name" error={err('name')}>
        {(a) => <input {...a} value={v.name} onChange={(e) => set('name')(e.target.value)} required autoFocus={!!onCancel} />}
      </Field>
      <Field label="Country code" error={err('country')}>
        {(a) => <input {...a} value={v.country} maxLength={2} onChange={(e) => set('country')(e.target.value.toUpperCase())} required />}
      </Field>
      <Field label="Region code (blank for the whole country)" error={err('region')}>
        {(a) => <input {...a} value={v.region} onChange={(e) => set('region')(e.target.value.toUpperCase())} />}
      </Field>
      <Field label="Rate (%)" error={err('rateBasisPoints')}>
        {(a) => <input {...a} value={v.rate} inputMode="decimal" onChange={(e) => set('rate')(e.target.value)} required />}
      </Field>
      <label>
        <input type="checkbox" checked={v.shipping} onChange={(e) => set('shipping')(e.target.checked)} /> Tax shipping too
      </label>
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

/**
 * /config/features: the site's feature switches, its experiments (variants and weights, and the shop funnel
 * split by variant), and the owner's preview and safe mode. /config/settings/billing: the self-hosted plan
 * and where the upgrade destinations lead.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../client/api.js';
import { msg, useLoad } from '../ui/records.js';
import { ColumnHeads, PageHeader, Skeleton } from '../ui/design.js';
import { PREVIEW_STORAGE_KEY, SAFE_MODE_STORAGE_KEY } from '../../../core/preview.js';

interface FeatureRow {
  code: number;
  key: string;
  label: string;
  beta: boolean;
  switchedOn: boolean;
  enabled: boolean;
}
interface Variant {
  name: string;
  weight: number;
}
interface Experiment {
  name: string;
  variants: Variant[];
}
interface Funnel {
  variant: string;
  visitors: number;
  steps: Array<{ step: string; visitors: number; conversion: number | null }>;
}

function remember(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage may be unavailable */
  }
}

function Switches() {
  const [d, setD, loadError, reload, saved] = useLoad<{ features: FeatureRow[] }>('/api/flags/features');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  if (!d) return loadError ? <p role="alert">{loadError}</p> : <Skeleton lines={3} label="Loading features" />;
  const rows = d.features;
  const toggle = async (f: FeatureRow, on: boolean) => {
    setError('');
    // The box follows the click at once (a controlled checkbox would otherwise spring back until the save answers).
    setD({ features: rows.map((r) => (r.key === f.key ? { ...r, switchedOn: on } : r)) });
    try {
      saved(await api<{ features: FeatureRow[] }>('PUT', '/api/flags/features', { features: { [f.key]: on } }));
      setStatus(`${f.label} is ${on ? 'on' : 'off'}.`);
    } catch (e) {
      reload();
      setError(msg(e));
    }
  };
  return (
    <section aria-labelledby="features-h" className="a-card admin-card">
      <h2 id="features-h">Features</h2>
      <p>A feature that is off hides its pages, calls and blocks from visitors.</p>
      <ul className="feature-list" style={{ listStyle: 'none', padding: 0, columns: '2 18em' }}>
        {rows.map((f) => (
          <li key={f.key}>
            <label>
              <input type="checkbox" checked={f.switchedOn} onChange={(e) => void toggle(f, e.target.checked)} /> {f.label}
              {f.beta ? ' (beta)' : ''}
              {f.switchedOn && !f.enabled ? ' — needs Commerce' : ''}
            </label>
          </li>
        ))}
      </ul>
      {error ? <p role="alert">{error}</p> : null}
      <p role="status">{status}</p>
    </section>
  );
}

function FunnelTable({ name }: { name: string }) {
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const [from, setFrom] = useState(monthAgo);
  const [to, setTo] = useState(today);
  const [data, setData] = useState<Funnel[] | null>(null);
  const [error, setError] = useState('');
  const load = async () => {
    setError('');
    try {
      setData(
        (await api<{ variants: Funnel[] }>('GET', `/api/flags/experiments/${encodeURIComponent(name)}/funnel?from=${from}&to=${to}`))
          .variants,
      );
    } catch (x) {
      setError(msg(x));
    }
  };
  return (
    <div role="group" aria-label={`Funnel by variant for ${name}`}>
      <label>
        From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>{' '}
      <label>
        To <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>{' '}
      <button type="button" onClick={() => void load()}>
        Show funnel for {name}
      </button>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <table>
          <caption>Shop funnel of {name} by variant (visitors)</caption>
          <ColumnHeads columns={['Variant', 'Visitors']}>
            {data[0]?.steps.map((s) => (
              <th scope="col" key={s.step}>
                {s.step.replace('_', ' ')}
              </th>
            ))}
          </ColumnHeads>
          <tbody>
            {data.map((v) => (
              <tr key={v.variant}>
                <th scope="row">{v.variant}</th>
                <td>{v.visitors}</td>
                {v.steps.map((s) => (
                  <td key={s.step}>
                    {s.visitors}
                    {s.conversion === null ? '' : ` (${Math.round(s.conversion * 100)}%)`}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** The 'internal site' mark: experiment overrides work on every address of the site, not only staging hosts. */
function InternalSite() {
  const [d, , loadError, , saved] = useLoad<{ internal: boolean }>('/api/flags/internal-site');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  if (!d) return loadError ? <p role="alert">{loadError}</p> : null;
  const internal = d.internal;
  const change = async (next: boolean) => {
    setError('');
    setStatus('');
    try {
      const r = await api<{ internal: boolean }>('PUT', '/api/flags/internal-site', { internal: next });
      saved(r);
      setStatus(
        r.internal
          ? 'This site is internal: experiment overrides work on every address.'
          : 'Experiment overrides work on staging hosts only.',
      );
    } catch (e) {
      setError(msg(e));
    }
  };
  return (
    <div>
      <label>
        <input type="checkbox" checked={internal} onChange={(e) => void change(e.target.checked)} /> Internal site (a test or staging site:
        experiment overrides work on every address)
      </label>
      {error ? <p role="alert">{error}</p> : null}
      <p role="status">{status}</p>
    </div>
  );
}

function Experiments() {
  const [d, setD, loadError, , saved] = useLoad<{ experiments: Experiment[] }>('/api/flags/experiments');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  if (!d) return loadError ? <p role="alert">{loadError}</p> : <Skeleton lines={3} label="Loading experiments" />;
  const list = d.experiments;
  const setList = (experiments: Experiment[]) => setD({ experiments });
  const edit = (i: number, e: Experiment) => setList(list.map((x, n) => (n === i ? e : x)));
  const save = async (ev: FormEvent) => {
    ev.preventDefault();
    setError('');
    setStatus('');
    try {
      saved(await api<{ experiments: Experiment[] }>('PUT', '/api/flags/experiments', { experiments: list }));
      setStatus('Saved.');
    } catch (e) {
      setError(msg(e));
    }
  };
  return (
    <section aria-labelledby="experiments-h" className="a-card admin-card">
      <h2 id="experiments-h">Experiments</h2>
      <p>
        Each visitor keeps one variant (chosen by weight). On staging hosts, add <code>?experiment.NAME=VARIANT</code> to a page address to
        try a variant, or <code>?experiment.NAME=reset</code> to go back.
      </p>
      <InternalSite />
      <form onSubmit={save} aria-label="Experiments">
        {list.map((e, i) => (
          <fieldset key={i}>
            <legend>{e.name || 'New experiment'}</legend>
            <label>
              Experiment name <input value={e.name} onChange={(x) => edit(i, { ...e, name: x.target.value })} required />
            </label>
            {e.variants.map((v, j) => (
              <div key={j}>
                <label>
                  Variant {j + 1} name{' '}
                  <input
                    value={v.name}
                    onChange={(x) => edit(i, { ...e, variants: e.variants.map((y, k) => (k === j ? { ...y, name: x.target.value } : y)) })}
                    required
                  />
                </label>{' '}
                <label>
                  Variant {j + 1} weight{' '}
                  <input
                    type="number"
                    min={0}
                    max={1000}
                    step={1}
                    value={v.weight}
                    onChange={(x) =>
                      edit(i, { ...e, variants: e.variants.map((y, k) => (k === j ? { ...y, weight: Number(x.target.value) } : y)) })
                    }
                  />
                </label>{' '}
                <button type="button" onClick={() => edit(i, { ...e, variants: e.variants.filter((_, k) => k !== j) })}>
                  Remove variant {j + 1} of {e.name || 'this experiment'}
                </button>
              </div>
            ))}
            <button type="button" onClick={() => edit(i, { ...e, variants: [...e.variants, { name: '', weight: 0 }] })}>
              Add a variant to {e.name || 'this experiment'}
            </button>{' '}
            <button type="button" onClick={() => setList(list.filter((_, n) => n !== i))}>
              Remove experiment {e.name}
            </button>
            {e.name ? <FunnelTable name={e.name} /> : null}
          </fieldset>
        ))}
        <button
          type="button"
          onClick={() =>
            setList([
              ...list,
              {
                name: '',
                variants: [
                  { name: 'control', weight: 50 },
                  { name: 'test', weight: 50 },
                ],
              },
            ])
          }
        >
          Add an experiment
        </button>{' '}
        <button type="submit">Save experiments</button>
        {error ? <p role="alert">{error}</p> : null}
        <p role="status">{status}</p>
      </form>
    </section>
  );
}

function PreviewAndSafeMode() {
  const [state, , loadError, reload] = useLoad<{
    drafts: boolean;
    theme: string | null;
    active: boolean;
    safeMode: boolean;
    themes: string[];
  }>('/api/flags/preview');
  const [theme, setTheme] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  if (!state) return loadError ? <p role="alert">{loadError}</p> : <Skeleton lines={3} label="Loading preview settings" />;
  const run = async (fn: () => Promise<unknown>, done: string) => {
    setError('');
    try {
      await fn();
      setStatus(done);
      reload();
    } catch (e) {
      setError(msg(e));
    }
  };
  return (
    <section aria-labelledby="preview-h" className="a-card admin-card">
      <h2 id="preview-h">Preview and safe mode</h2>
      <p>Only you see these: visitors always get the published site.</p>
      <p>
        {state.active
          ? `Preview is on${state.theme ? ` with the theme “${state.theme}”` : ''}: drafts and scheduled posts show on the site for you.`
          : 'Preview is off.'}
      </p>
      <label>
        Theme to preview{' '}
        <select value={theme} onChange={(e) => setTheme(e.target.value)}>
          <option value="">The live theme</option>
          {state.themes.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>{' '}
      <button
        type="button"
        onClick={() =>
          void run(async () => {
            await api('POST', '/api/flags/preview', { drafts: true, theme: theme || null });
            remember(PREVIEW_STORAGE_KEY, { drafts: true, theme: theme || null });
          }, 'Preview is on.')
        }
      >
        Preview unpublished changes
      </button>{' '}
      <button
        type="button"
        onClick={() =>
          void run(async () => {
            await api('DELETE', '/api/flags/preview');
            remember(PREVIEW_STORAGE_KEY, null);
          }, 'Preview is off.')
        }
      >
        Stop previewing
      </button>
      <p>
        Safe mode leaves out your header and footer code and custom scripts, so you can fix a broken injection. You can also add
        ?safe-mode=1 to any page address.
      </p>
      <label>
        <input
          type="checkbox"
          checked={state.safeMode}
          onChange={(e) => {
            const on = e.target.checked;
            void run(
              async () => {
                await api('PUT', '/api/flags/safe-mode', { enabled: on });
                remember(SAFE_MODE_STORAGE_KEY, on);
              },
              on ? 'Safe mode is on.' : 'Safe mode is off.',
            );
          }}
        />{' '}
        Safe mode (for me)
      </label>
      {error ? <p role="alert">{error}</p> : null}
      <p role="status">{status}</p>
    </section>
  );
}

export function FeaturesScreen() {
  return (
    <>
      <PageHeader
        title="Features and experiments"
        description="Switch parts of the site on or off, test variants against each other, and preview drafts before visitors see them."
      />
      <Switches />
      <Experiments />
      <PreviewAndSafeMode />
    </>
  );
}

interface Billing {
  plan: { name: string; description: string };
  destinations: Array<{ key: string; label: string; url: string }>;
}

/** /config/settings/billing and its two upgrade destinations. */
export function BillingScreen({ path }: { path: string }) {
  const [d, , error] = useLoad<Billing>('/api/flags/billing');
  if (!d) return error ? <p role="alert">{error}</p> : <Skeleton lines={3} label="Loading billing" />;
  const here = d.destinations.find((x) => path.replace(/\/+$/, '') === x.url);
  return (
    <>
      <PageHeader
        title={here ? here.label : 'Billing'}
        description="The plan this site runs on."
        breadcrumbs={here ? [{ label: 'Billing', href: '/config/settings/billing' }, { label: here.label }] : undefined}
      />
      <section className="a-card admin-card" aria-labelledby="plan-h">
        <h2 id="plan-h">Plan: {d.plan.name}</h2>
        <p>{d.plan.description}</p>
        {here ? (
          <p>
            A hosted service would take you here to {here.key === 'trialUpgrade' ? 'upgrade from a trial' : 'choose a website subscription'}
            ; a self-hosted site has nothing to buy.
          </p>
        ) : null}
      </section>
      <nav aria-label="Upgrade destinations" className="a-card admin-card">
        <h2>Where upgrades lead</h2>
        <ul>
          {d.destinations.map((x) => (
            <li key={x.key}>
              <a href={x.url} aria-current={here?.key === x.key ? 'page' : undefined}>
                {x.label}
              </a>{' '}
              <code>{x.url}</code>
            </li>
          ))}
        </ul>
        {here ? <a href="/config/settings/billing">Back to billing</a> : null}
      </nav>
    </>
  );
}

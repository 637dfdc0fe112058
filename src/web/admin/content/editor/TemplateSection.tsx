/**
 * /config/styles, first section: which theme the site renders with (Tessera's own, or a developer template
 * folder beside THEME_DIR) and the active template's tweaks (colour, font, dropdown, checkbox, value), as
 * its stylesheets declare them (server/themes). Hidden for team members who cannot change the theme.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../../client/api.js';
import { editor as editorMessages } from '../../../../core/messages.js';
import type { ThemesState, TweakView } from '../../../../core/api/themes.js';

const HEX6 = /^#[0-9a-f]{6}$/i;

export function TemplateSection() {
  const [state, setState] = useState<ThemesState | null>(null);
  const [hidden, setHidden] = useState(false);
  const [choice, setChoice] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const take = useCallback((s: ThemesState) => {
    setState(s);
    setChoice(s.theme);
    setValues(Object.fromEntries(s.tweaks.map((t) => [t.name, t.value])));
  }, []);

  useEffect(() => {
    api<ThemesState>('GET', '/api/themes').then(take, (e: { status?: number; message?: string }) => {
      if (e.status === 401 || e.status === 403) setHidden(true);
      else setError(e.message || editorMessages.UNABLE_TO_CONNECT);
    });
  }, [take]);

  if (hidden) return null;
  if (!state) return error ? <p role="alert">{error}</p> : <p>Loading themes…</p>;

  async function put(body: Record<string, unknown>, done: string, path = '/api/themes') {
    setBusy(true);
    setError('');
    setStatus('');
    try {
      take(await api<ThemesState>('PUT', path, body));
      setStatus(done);
    } catch (err) {
      const st = (err as { status?: number }).status;
      setError(st ? (err as Error).message : editorMessages.UNABLE_TO_CONNECT);
    } finally {
      setBusy(false);
    }
  }

  const saveTheme = (e: FormEvent) => {
    e.preventDefault();
    void put({ theme: choice }, 'Theme saved.');
  };
  const changed = state.tweaks.filter((t) => values[t.name] !== t.value);
  const saveTweaks = (e: FormEvent) => {
    e.preventDefault();
    if (changed.length) void put({ tweaks: Object.fromEntries(changed.map((t) => [t.name, values[t.name]])) }, 'Tweaks saved.');
  };
  const set = (name: string, v: string) => {
    setValues((old) => ({ ...old, [name]: v }));
    setStatus('');
  };

  return (
    <>
      <form onSubmit={saveTheme} aria-label="Site theme" className="ed-styles">
        <fieldset className="admin-card">
          <legend>Site theme</legend>
          {state.themes.map((t) => (
            <label key={t.id} className="ed-check">
              <input type="radio" name="site-theme" value={t.id} checked={choice === t.id} onChange={() => setChoice(t.id)} />
              {t.name}
            </label>
          ))}
          <p>
            <button type="submit" disabled={busy || choice === state.theme}>
              Save theme
            </button>
          </p>
        </fieldset>
      </form>
      {state.tweaks.length ? (
        <form onSubmit={saveTweaks} aria-label="Template tweaks" className="ed-styles">
          <fieldset className="admin-card">
            <legend>Template tweaks</legend>
            {state.tweaks.map((t) => (
              <TweakField key={t.name} t={t} v={values[t.name] ?? t.default} set={set} />
            ))}
            <p>
              <button type="submit" disabled={busy || changed.length === 0}>
                Save tweaks
              </button>
            </p>
          </fieldset>
        </form>
      ) : null}
      {state.pages.length ? (
        <form aria-label="Page layouts" className="ed-styles" onSubmit={(e) => e.preventDefault()}>
          <fieldset className="admin-card">
            <legend>Page layouts</legend>
            {state.pages.map((p) => (
              <label key={p.id} className="ed-field">
                {p.title} layout
                <select
                  value={p.layout}
                  disabled={busy}
                  onChange={(e) => void put({ collectionId: p.id, layout: e.target.value }, 'Layout saved.', '/api/themes/layout')}
                >
                  {state.layouts.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
        </form>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {status ? <p role="status">{status}</p> : null}
    </>
  );
}

/** One template tweak's input, by its type: checkbox, dropdown, colour, number with its unit, or text. */
function TweakField({ t, v, set }: { t: TweakView; v: string; set: (name: string, v: string) => void }) {
  const label = t.category ? `${t.title} (${t.category})` : t.title;
  if (t.type === 'checkbox') {
    return (
      <label className="ed-check">
        <input type="checkbox" checked={v === 'true'} onChange={(e) => set(t.name, e.target.checked ? 'true' : 'false')} />
        {label}
      </label>
    );
  }
  if (t.type === 'dropdown') {
    return (
      <label className="ed-field">
        {label}
        <select value={v} onChange={(e) => set(t.name, e.target.value)}>
          {t.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (t.type === 'color' && HEX6.test(v)) {
    return (
      <label className="ed-field">
        {label}
        <input type="color" value={v} onChange={(e) => set(t.name, e.target.value)} />
      </label>
    );
  }
  if (t.type === 'value') {
    const num = v.replace(/[a-z%]+$/i, '');
    return (
      <label className="ed-field">
        {label}
        {t.unit ? ` (${t.unit})` : ''}
        <input
          type="number"
          value={num}
          min={t.min ?? undefined}
          max={t.max ?? undefined}
          step={t.step ?? 'any'}
          onChange={(e) => set(t.name, e.target.value)}
        />
      </label>
    );
  }
  return (
    <label className="ed-field">
      {label}
      <input type="text" value={v} onChange={(e) => set(t.name, e.target.value)} />
    </label>
  );
}

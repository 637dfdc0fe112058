/**
 * /config/styles: site styles. A colour palette, colour themes (the dark-colour test picks the text
 * colour when a theme leaves it automatic) and fonts by usage category (headings, body, buttons).
 * Only the dirty paths (what the owner changed) are sent; a save after someone else's is refused
 * with a message and a Reload action.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../client/api.js';
import { DIRTY_PATHS, FONT_USAGE_CATEGORIES, dirtyPaths, textColourOn, type ColourTheme, type FontUsage, type SiteStyles } from '../../../core/site-styles.js';
import { editor as editorMessages } from '../../../core/messages.js';
import { LoadFailed } from './PagesScreen.js';
import { EDITOR_CSS } from './styles.js';
import { TemplateSection } from './TemplateSection.js';

interface StylesDoc {
  styles: SiteStyles;
  version: number;
}

const PALETTE_LABELS: Record<keyof SiteStyles['colors']['palette'], string> = {
  accent: 'Accent',
  lightAccent: 'Light accent',
  light: 'Light',
  darkAccent: 'Dark accent',
  dark: 'Dark',
};

const USAGE_LABELS: Record<FontUsage, string> = { headings: 'Headings', body: 'Body text', buttons: 'Buttons' };
const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900];

/** Reads a dirty path's value out of the styles ('colors.palette' -> styles.colors.palette). */
function valueAt(styles: SiteStyles, path: string): unknown {
  const [area, key] = path.split('.') as ['colors' | 'fonts', string];
  return (styles[area] as Record<string, unknown>)[key];
}

export function StylesScreen() {
  const [doc, setDoc] = useState<StylesDoc | null>(null);
  const [draft, setDraft] = useState<SiteStyles | null>(null);
  const [loadError, setLoadError] = useState('');
  const [conflict, setConflict] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    setLoadError('');
    setConflict('');
    setError('');
    api<StylesDoc>('GET', '/api/editor/styles').then(
      (d) => {
        setDoc(d);
        setDraft(structuredClone(d.styles));
      },
      (e: Error) => setLoadError(e.message || 'failed'),
    );
  }, []);
  useEffect(load, [load]);

  if (loadError) {
    return (
      <>
        <style>{EDITOR_CSS}</style>
        <h1>Site styles</h1>
        <LoadFailed onRetry={load} detail={loadError} />
      </>
    );
  }
  if (!doc || !draft) return <p>Loading…</p>;

  const dirty = dirtyPaths(doc.styles, draft);
  const edit = (fn: (s: SiteStyles) => void) => {
    const next = structuredClone(draft);
    fn(next);
    setDraft(next);
    setStatus('');
  };
  const editTheme = (i: number, patch: Partial<ColourTheme>) => edit((s) => void Object.assign(s.colors.themes[i]!, patch));

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!doc || !draft || dirty.length === 0) return;
    setBusy(true);
    setError('');
    try {
      const changes = Object.fromEntries(dirty.map((p) => [p, valueAt(draft, p)]));
      const r = await api<StylesDoc>('PUT', '/api/editor/styles', { version: doc.version, changes });
      setDoc(r);
      setDraft(structuredClone(r.styles));
      setStatus('Styles saved.');
    } catch (err) {
      const st = (err as { status?: number }).status;
      if (st === 409) setConflict((err as Error).message);
      else setError(st ? (err as Error).message : editorMessages.UNABLE_TO_CONNECT);
    } finally {
      setBusy(false);
    }
  }

  const families = [...new Set([...draft.fonts.themes.flatMap((t) => [t.headings, t.body, t.buttons]), ...FONT_USAGE_CATEGORIES.map((u) => draft.fonts.usageCategories[u].family)])];
  const fontName = (f: string) => f.split(',')[0]!.replace(/["']/g, '').trim();

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <h1>Site styles</h1>
      <TemplateSection />
      {conflict ? (
        <div role="alert" className="ed-alert">
          <span>{conflict}</span>
          <button type="button" onClick={load}>
            Reload
          </button>
        </div>
      ) : null}
      <form onSubmit={save} aria-label="Site styles" className="ed-styles">
        <fieldset className="admin-card">
          <legend>Colour palette</legend>
          <div className="ed-swatches">
            {(Object.keys(PALETTE_LABELS) as Array<keyof typeof PALETTE_LABELS>).map((k) => (
              <label key={k} className="ed-check">
                <input type="color" value={draft.colors.palette[k]} onChange={(e) => edit((s) => void (s.colors.palette[k] = e.target.value))} />
                {PALETTE_LABELS[k]}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="admin-card">
          <legend>Colour themes</legend>
          <label className="ed-field">
            Default section theme
            <select value={draft.colors.defaultThemeId} onChange={(e) => edit((s) => void (s.colors.defaultThemeId = e.target.value))}>
              {draft.colors.themes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          {draft.colors.themes.map((t, i) => {
            const text = textColourOn(t.background, t.text);
            return (
              <fieldset key={t.id} style={{ border: '1px solid #ddd', borderRadius: 6, margin: '0 0 10px', padding: 8 }}>
                <legend>{t.name} theme</legend>
                <div className="ed-swatches">
                  <label className="ed-check">
                    <input type="color" value={t.background} onChange={(e) => editTheme(i, { background: e.target.value })} />
                    {t.name} background
                  </label>
                  <label className="ed-check">
                    <input type="color" value={t.accent} onChange={(e) => editTheme(i, { accent: e.target.value })} />
                    {t.name} accent
                  </label>
                  <label className="ed-check">
                    <input type="checkbox" checked={t.text === null} onChange={(e) => editTheme(i, { text: e.target.checked ? null : text })} />
                    {t.name} text colour automatic
                  </label>
                  {t.text !== null ? (
                    <label className="ed-check">
                      <input type="color" value={t.text} onChange={(e) => editTheme(i, { text: e.target.value })} />
                      {t.name} text
                    </label>
                  ) : null}
                </div>
                <p style={{ background: t.background, color: text, padding: 8, borderRadius: 4, margin: '6px 0 0' }}>
                  Sample text on {t.name}{' '}
                  <span style={{ background: t.accent, color: textColourOn(t.accent), padding: '2px 6px', borderRadius: 4 }}>Button</span>
                  {t.text === null ? ` (automatic: ${text === '#ffffff' ? 'light' : 'dark'} text)` : ''}
                </p>
              </fieldset>
            );
          })}
        </fieldset>
        <fieldset className="admin-card">
          <legend>Fonts</legend>
          <label className="ed-field">
            Font theme
            <select
              value={draft.fonts.activeThemeId}
              onChange={(e) =>
                edit((s) => {
                  s.fonts.activeThemeId = e.target.value;
                  const ft = s.fonts.themes.find((t) => t.id === e.target.value);
                  if (ft) for (const u of FONT_USAGE_CATEGORIES) s.fonts.usageCategories[u].family = ft[u];
                })
              }
            >
              {draft.fonts.themes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          {FONT_USAGE_CATEGORIES.map((u) => {
            const f = draft.fonts.usageCategories[u];
            return (
              <fieldset key={u} style={{ border: '1px solid #ddd', borderRadius: 6, margin: '0 0 10px', padding: 8 }}>
                <legend>{USAGE_LABELS[u]}</legend>
                <label className="ed-field">
                  {USAGE_LABELS[u]} font
                  <select value={f.family} onChange={(e) => edit((s) => void (s.fonts.usageCategories[u].family = e.target.value))}>
                    {families.map((fam) => (
                      <option key={fam} value={fam}>
                        {fontName(fam)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="ed-field">
                  {USAGE_LABELS[u]} weight
                  <select value={f.weight} onChange={(e) => edit((s) => void (s.fonts.usageCategories[u].weight = Number(e.target.value)))}>
                    {WEIGHTS.map((w) => (
                      <option key={w} value={w}>
                        {w}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="ed-field">
                  {USAGE_LABELS[u]} size (rem)
                  <input type="number" min={0.5} max={6} step={0.05} value={f.size} onChange={(e) => edit((s) => void (s.fonts.usageCategories[u].size = Number(e.target.value)))} />
                </label>
                <p style={{ fontFamily: f.family, fontWeight: f.weight, fontSize: `${f.size}rem`, margin: 0 }}>{u === 'buttons' ? 'Add To Cart' : 'The quick brown fox'}</p>
              </fieldset>
            );
          })}
        </fieldset>
        <p>{dirty.length ? `Changed: ${dirty.length} of ${DIRTY_PATHS.length} style groups.` : 'No changes.'}</p>
        <button type="submit" disabled={busy || dirty.length === 0 || !!conflict}>
          Save styles
        </button>{' '}
        <button type="button" disabled={busy || dirty.length === 0} onClick={() => setDraft(structuredClone(doc.styles))}>
          Discard changes
        </button>
        {error ? <p role="alert">{error}</p> : null}
        {status ? <p role="status">{status}</p> : null}
      </form>
    </>
  );
}

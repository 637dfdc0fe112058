/**
 * /config/styles: site styles. A colour palette, colour themes (the dark-colour test picks the text
 * colour when a theme leaves it automatic) and fonts by usage category (headings, body, buttons).
 * Only the dirty paths (what the owner changed) are sent; a save after someone else's is refused
 * with a message and a Reload action. Issue #27: fonts come from the site's own font library (previewed
 * in place, loaded from /site-fonts/), and primary buttons and spacing are styled here too.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../../client/api.js';
import {
  BUTTON_FILLS,
  BUTTON_SHAPES,
  DIRTY_PATHS,
  FONT_USAGE_CATEGORIES,
  SPACING_SCALES,
  dirtyPaths,
  textColourOn,
  type ButtonFill,
  type ButtonShape,
  type ColourTheme,
  type FontUsage,
  type SiteStyles,
  type SpacingScale,
} from '../../../../core/site-styles.js';
import { FONT_LIBRARY, SYSTEM_FONTS, firstFamily, libraryFontOf, nearestWeight } from '../../../../core/font-library.js';
import { editor as editorMessages } from '../../../../core/messages.js';
import { ConflictBanner, LoadFailed } from './PagesScreen.js';
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
const SHAPE_LABELS: Record<ButtonShape, string> = { pill: 'Pill', rounded: 'Rounded', square: 'Square' };
const FILL_LABELS: Record<ButtonFill, string> = { solid: 'Solid', outline: 'Outline' };
const SPACING_LABELS: Record<SpacingScale, string> = { compact: 'Compact', comfortable: 'Comfortable', spacious: 'Spacious' };
const BUTTON_RADIUS: Record<ButtonShape, string> = { pill: '99px', rounded: '8px', square: '0' };

/** The weights a family offers on screen: a library family's shipped weights, any weight for system fonts. */
function weightsOf(family: string): number[] {
  const f = libraryFontOf(family);
  return f ? [...f.weights] : WEIGHTS;
}

/**
 * Loads the preview faces of the library (every family at 400 and 700, plus the weights chosen) from the
 * site itself, and reports a family whose preview could not be loaded.
 */
function useFontPreviews(uses: Array<{ family: string; weight: number }>) {
  const extra = [
    ...new Set(
      uses.flatMap((u) => {
        const f = libraryFontOf(u.family);
        return f ? [`${f.id}-${nearestWeight(f, u.weight)}`] : [];
      }),
    ),
  ].sort();
  // A retry after the library failed asks again under a new address (the browser would reuse the failure).
  const [attempt, setAttempt] = useState(0);
  const query = [extra.length ? `w=${extra.join(',')}` : '', attempt ? `r=${attempt}` : ''].filter(Boolean).join('&');
  const href = `/site-fonts/library.css${query ? `?${query}` : ''}`;
  const [loaded, setLoaded] = useState('');
  const [failed, setFailed] = useState(false);
  /** The font library itself (its stylesheet) did not load: 'Unable to load fonts', with Try again. */
  const [libraryFailed, setLibraryFailed] = useState(false);
  const key = uses.map((u) => `${u.family}@${u.weight}`).join('|');
  useEffect(() => {
    // Once the stylesheet is in, ask for each chosen library face; one that loads nothing failed.
    if (loaded !== href || typeof document === 'undefined' || !document.fonts) return;
    let live = true;
    const wanted = uses.filter((u) => libraryFontOf(u.family));
    Promise.all(wanted.map((u) => document.fonts.load(`${u.weight} 16px "${firstFamily(u.family)}"`, 'Aa').then((list) => list.length > 0)))
      .then((ok) => live && setFailed(ok.some((x) => !x)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [key, href, loaded]);
  return {
    href,
    failed,
    libraryFailed,
    onLoad: () => {
      setLibraryFailed(false);
      setLoaded(href);
    },
    onError: () => setLibraryFailed(true),
    retry: () => {
      setLibraryFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}

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
  const previews = useFontPreviews(draft ? FONT_USAGE_CATEGORIES.map((u) => draft.fonts.usageCategories[u]) : []);

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

  const known = new Set<string>([...FONT_LIBRARY.map((f) => f.stack), ...SYSTEM_FONTS.map((f) => f.stack)]);
  // Families saved before the library (or in font themes) stay choosable under their own name.
  const others = [
    ...new Set([
      ...draft.fonts.themes.flatMap((t) => [t.headings, t.body, t.buttons]),
      ...FONT_USAGE_CATEGORIES.map((u) => draft.fonts.usageCategories[u].family),
    ]),
  ].filter((f) => !known.has(f));
  const button = draft.buttons.primary;
  const accent = draft.colors.palette.accent;
  const btnFont = draft.fonts.usageCategories.buttons;

  return (
    <>
      <style>{EDITOR_CSS}</style>
      <link rel="stylesheet" href={previews.href} onLoad={previews.onLoad} onError={previews.onError} />
      <h1>Site styles</h1>
      <TemplateSection />
      {conflict ? <ConflictBanner message={conflict} onReload={load} /> : null}
      <form onSubmit={save} aria-label="Site styles" className="ed-styles">
        <fieldset className="admin-card">
          <legend>Colour palette</legend>
          <div className="ed-swatches">
            {(Object.keys(PALETTE_LABELS) as Array<keyof typeof PALETTE_LABELS>).map((k) => (
              <label key={k} className="ed-check">
                <input
                  type="color"
                  value={draft.colors.palette[k]}
                  onChange={(e) => edit((s) => void (s.colors.palette[k] = e.target.value))}
                />
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
                    <input
                      type="checkbox"
                      checked={t.text === null}
                      onChange={(e) => editTheme(i, { text: e.target.checked ? null : text })}
                    />
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
                  <select
                    value={f.family}
                    onChange={(e) =>
                      edit((s) => {
                        const c = s.fonts.usageCategories[u];
                        c.family = e.target.value;
                        const lib = libraryFontOf(c.family);
                        if (lib) c.weight = nearestWeight(lib, c.weight);
                      })
                    }
                  >
                    <optgroup label="Font library (served by this site)">
                      {FONT_LIBRARY.map((lib) => (
                        <option key={lib.id} value={lib.stack}>
                          {lib.name} ({lib.category})
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label="System fonts">
                      {SYSTEM_FONTS.map((sys) => (
                        <option key={sys.stack} value={sys.stack}>
                          {sys.name}
                        </option>
                      ))}
                    </optgroup>
                    {others.length ? (
                      <optgroup label="Other">
                        {others.map((fam) => (
                          <option key={fam} value={fam}>
                            {firstFamily(fam)}
                          </option>
                        ))}
                      </optgroup>
                    ) : null}
                  </select>
                </label>
                <label className="ed-field">
                  {USAGE_LABELS[u]} weight
                  <select value={f.weight} onChange={(e) => edit((s) => void (s.fonts.usageCategories[u].weight = Number(e.target.value)))}>
                    {weightsOf(f.family).map((w) => (
                      <option key={w} value={w}>
                        {w}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="ed-field">
                  {USAGE_LABELS[u]} size (rem)
                  <input
                    type="number"
                    min={0.5}
                    max={6}
                    step={0.05}
                    value={f.size}
                    onChange={(e) => edit((s) => void (s.fonts.usageCategories[u].size = Number(e.target.value)))}
                  />
                </label>
                <p className="ed-font-preview" style={{ fontFamily: f.family, fontWeight: f.weight, fontSize: `${f.size}rem`, margin: 0 }}>
                  {u === 'buttons' ? 'Add To Cart' : 'The quick brown fox jumps over the lazy dog'}
                </p>
              </fieldset>
            );
          })}
        </fieldset>
        {previews.libraryFailed ? (
          <p role="alert">
            {editorMessages.UNABLE_TO_LOAD_FONTS}{' '}
            <button type="button" onClick={previews.retry}>
              {editorMessages.TRY_AGAIN}
            </button>
          </p>
        ) : previews.failed ? (
          <p role="alert">{editorMessages.FONT_PREVIEW_FAILED}</p>
        ) : null}
        <fieldset className="admin-card">
          <legend>Buttons</legend>
          <label className="ed-field">
            Button shape
            <select value={button.shape} onChange={(e) => edit((s) => void (s.buttons.primary.shape = e.target.value as ButtonShape))}>
              {BUTTON_SHAPES.map((v) => (
                <option key={v} value={v}>
                  {SHAPE_LABELS[v]}
                </option>
              ))}
            </select>
          </label>
          <label className="ed-field">
            Button fill
            <select value={button.fill} onChange={(e) => edit((s) => void (s.buttons.primary.fill = e.target.value as ButtonFill))}>
              {BUTTON_FILLS.map((v) => (
                <option key={v} value={v}>
                  {FILL_LABELS[v]}
                </option>
              ))}
            </select>
          </label>
          <label className="ed-check">
            <input
              type="checkbox"
              checked={button.uppercase}
              onChange={(e) => edit((s) => void (s.buttons.primary.uppercase = e.target.checked))}
            />
            Uppercase button text
          </label>
          <p style={{ margin: 0 }}>
            <span
              className="ed-button-preview"
              style={{
                display: 'inline-block',
                padding: '10px 20px',
                borderRadius: BUTTON_RADIUS[button.shape],
                background: button.fill === 'solid' ? accent : 'transparent',
                color: button.fill === 'solid' ? textColourOn(accent) : accent,
                border: button.fill === 'solid' ? '2px solid transparent' : `2px solid ${accent}`,
                textTransform: button.uppercase ? 'uppercase' : 'none',
                fontFamily: btnFont.family,
                fontWeight: btnFont.weight,
              }}
            >
              Add To Cart
            </span>
          </p>
        </fieldset>
        <fieldset className="admin-card">
          <legend>Spacing</legend>
          <label className="ed-field">
            Spacing scale
            <select value={draft.spacing.scale} onChange={(e) => edit((s) => void (s.spacing.scale = e.target.value as SpacingScale))}>
              {SPACING_SCALES.map((v) => (
                <option key={v} value={v}>
                  {SPACING_LABELS[v]}
                </option>
              ))}
            </select>
          </label>
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

/**
 * Site styles of the editor (issue #13; pure): a colour palette and colour themes, and fonts by usage
 * category (headings, body, buttons). Saves carry only the changed (dirty) paths
 * (DIRTY_PATHS); `applyStyleChanges` checks and applies them. `stylesCss` turns styles into CSS
 * variables; the dark-colour test picks the text colour of a theme whose text colour is automatic.
 */
import { isDarkColour, parseHex, formatHex } from './colour';
import { platform as pm, pageEditor as em } from './messages';

export interface ColourTheme {
  id: string;
  name: string;
  background: string;
  /** '#rrggbb', or null: white on dark backgrounds, near-black on light ones (the dark-colour test). */
  text: string | null;
  accent: string;
}

export interface FontSpec {
  family: string;
  /** 100-900 */
  weight: number;
  /** rem, 0.5-6 */
  size: number;
}

export type FontUsage = 'headings' | 'body' | 'buttons';
export const FONT_USAGE_CATEGORIES: readonly FontUsage[] = Object.freeze(['headings', 'body', 'buttons']);

export interface FontTheme {
  id: string;
  name: string;
  headings: string;
  body: string;
  buttons: string;
}

export type ButtonShape = 'pill' | 'rounded' | 'square';
export type ButtonFill = 'solid' | 'outline';
export const BUTTON_SHAPES: readonly ButtonShape[] = Object.freeze(['pill', 'rounded', 'square']);
export const BUTTON_FILLS: readonly ButtonFill[] = Object.freeze(['solid', 'outline']);
/** The look of primary buttons everywhere (Add To Cart, checkout, forms, button blocks). */
export interface ButtonStyle {
  shape: ButtonShape;
  fill: ButtonFill;
  uppercase: boolean;
}

export type SpacingScale = 'compact' | 'comfortable' | 'spacious';
export const SPACING_SCALES: readonly SpacingScale[] = Object.freeze(['compact', 'comfortable', 'spacious']);
const SPACING_FACTOR: Record<SpacingScale, number> = { compact: 0.75, comfortable: 1, spacious: 1.35 };
const BUTTON_RADIUS: Record<ButtonShape, string> = { pill: '99px', rounded: '8px', square: '0' };

export interface SiteStyles {
  colors: {
    defaultThemeId: string;
    palette: { accent: string; lightAccent: string; light: string; darkAccent: string; dark: string };
    themes: ColourTheme[];
  };
  fonts: {
    activeThemeId: string;
    themes: FontTheme[];
    usageCategories: Record<FontUsage, FontSpec>;
  };
  /** Issue #27: button styles and the spacing scale (styles saved before it read as the defaults). */
  buttons: { primary: ButtonStyle };
  spacing: { scale: SpacingScale };
}

/** The paths a save may carry: default theme id and palette/themes for colors; active theme id, themes and font usage categories for fonts. */
export const DIRTY_PATHS = Object.freeze([
  'colors.defaultThemeId',
  'colors.palette',
  'colors.themes',
  'fonts.activeThemeId',
  'fonts.themes',
  'fonts.usageCategories',
  'buttons.primary',
  'spacing.scale',
] as const);
export type DirtyPath = (typeof DIRTY_PATHS)[number];

export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#1f1d1a';

const SYSTEM_SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const SERIF = 'Georgia, "Times New Roman", serif';

export function defaultSiteStyles(): SiteStyles {
  return {
    colors: {
      defaultThemeId: 'white',
      palette: { accent: '#2f5d50', lightAccent: '#dce8e3', light: '#f4f1ea', darkAccent: '#3b4a45', dark: '#1f1d1a' },
      themes: [
        { id: 'white', name: 'White', background: '#ffffff', text: null, accent: '#2f5d50' },
        { id: 'light', name: 'Light', background: '#f4f1ea', text: null, accent: '#2f5d50' },
        { id: 'accent', name: 'Accent', background: '#2f5d50', text: null, accent: '#dce8e3' },
        { id: 'dark', name: 'Dark', background: '#1f1d1a', text: null, accent: '#dce8e3' },
        { id: 'black', name: 'Black', background: '#000000', text: null, accent: '#ffffff' },
      ],
    },
    fonts: {
      activeThemeId: 'classic',
      themes: [
        { id: 'classic', name: 'Classic', headings: SERIF, body: SYSTEM_SANS, buttons: SYSTEM_SANS },
        { id: 'modern', name: 'Modern', headings: SYSTEM_SANS, body: SYSTEM_SANS, buttons: SYSTEM_SANS },
      ],
      usageCategories: {
        headings: { family: SERIF, weight: 600, size: 2 },
        body: { family: SYSTEM_SANS, weight: 400, size: 1 },
        buttons: { family: SYSTEM_SANS, weight: 600, size: 1 },
      },
    },
    buttons: { primary: { shape: 'pill', fill: 'solid', uppercase: false } },
    spacing: { scale: 'comfortable' },
  };
}

/** Saved styles as read back: parts added after they were saved take their defaults. */
export function normaliseStyles(raw: Partial<SiteStyles>): SiteStyles {
  const d = defaultSiteStyles();
  return {
    colors: raw.colors ?? d.colors,
    fonts: raw.fonts ?? d.fonts,
    buttons: { primary: { ...d.buttons.primary, ...(raw.buttons?.primary ?? {}) } },
    spacing: { scale: raw.spacing?.scale ?? d.spacing.scale },
  };
}

/** The text colour of a theme: its own, or chosen by the dark-colour test of its background. */
export function textColourOn(background: string, text: string | null = null): string {
  if (text) return text;
  return isDarkColour(background) ? LIGHT_TEXT : DARK_TEXT;
}

const ID = /^[a-z0-9-]{1,40}$/;
/** Font family lists: names, quotes, commas, spaces and hyphens only (nothing that can end a CSS rule). */
const FAMILY = /^[A-Za-z0-9 ,'"\-]{1,200}$/;

type Errors = Record<string, string>;

function hex(v: unknown, path: string, errors: Errors): string {
  const rgb = typeof v === 'string' && /^#?[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(v.trim()) ? parseHex(v) : null;
  if (!rgb) {
    errors[path] = pm.notExpectedOption(String(v));
    return '#000000';
  }
  return formatHex(rgb);
}

function id(v: unknown, path: string, errors: Errors): string {
  if (typeof v !== 'string' || !ID.test(v)) errors[path] = pm.notExpectedOption(String(v));
  return String(v);
}

function name(v: unknown, path: string, errors: Errors): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > 60) errors[path] = em.REQUIRED;
  return String(v ?? '');
}

function family(v: unknown, path: string, errors: Errors): string {
  if (typeof v !== 'string' || !FAMILY.test(v)) errors[path] = pm.notExpectedOption(String(v));
  return String(v);
}

function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function uniqueIds(list: Array<{ id: string }>, path: string, errors: Errors, tagType: string) {
  const seen = new Set<string>();
  list.forEach((t, i) => {
    if (seen.has(t.id)) errors[`${path}.${i}.id`] = pm.tagExists(tagType);
    seen.add(t.id);
  });
}

/** Checks and normalises the value of one dirty path. */
export function checkStylePath(path: DirtyPath, value: unknown, errors: Errors): unknown {
  switch (path) {
    case 'colors.defaultThemeId':
    case 'fonts.activeThemeId':
      return id(value, path, errors);
    case 'colors.palette': {
      const p = rec(value);
      return {
        accent: hex(p.accent, `${path}.accent`, errors),
        lightAccent: hex(p.lightAccent, `${path}.lightAccent`, errors),
        light: hex(p.light, `${path}.light`, errors),
        darkAccent: hex(p.darkAccent, `${path}.darkAccent`, errors),
        dark: hex(p.dark, `${path}.dark`, errors),
      };
    }
    case 'colors.themes': {
      if (!Array.isArray(value) || value.length === 0 || value.length > 20) {
        errors[path] = em.listTooShort(1);
        return [];
      }
      const themes: ColourTheme[] = value.map((t, i) => {
        const o = rec(t);
        const p = `${path}.${i}`;
        return {
          id: id(o.id, `${p}.id`, errors),
          name: name(o.name, `${p}.name`, errors),
          background: hex(o.background, `${p}.background`, errors),
          text: o.text === null || o.text === undefined || o.text === '' ? null : hex(o.text, `${p}.text`, errors),
          accent: hex(o.accent, `${p}.accent`, errors),
        };
      });
      uniqueIds(themes, path, errors, 'colour theme');
      return themes;
    }
    case 'fonts.themes': {
      if (!Array.isArray(value) || value.length === 0 || value.length > 20) {
        errors[path] = em.listTooShort(1);
        return [];
      }
      const themes: FontTheme[] = value.map((t, i) => {
        const o = rec(t);
        const p = `${path}.${i}`;
        return {
          id: id(o.id, `${p}.id`, errors),
          name: name(o.name, `${p}.name`, errors),
          headings: family(o.headings, `${p}.headings`, errors),
          body: family(o.body, `${p}.body`, errors),
          buttons: family(o.buttons, `${p}.buttons`, errors),
        };
      });
      uniqueIds(themes, path, errors, 'font theme');
      return themes;
    }
    case 'fonts.usageCategories': {
      const o = rec(value);
      const out = {} as Record<FontUsage, FontSpec>;
      for (const u of FONT_USAGE_CATEGORIES) {
        const f = rec(o[u]);
        const p = `${path}.${u}`;
        const weight = Number(f.weight);
        const size = Number(f.size);
        if (!Number.isInteger(weight) || weight < 100 || weight > 900 || weight % 100 !== 0)
          errors[`${p}.weight`] = em.numberBetween(100, 900);
        if (!Number.isFinite(size) || size < 0.5 || size > 6) errors[`${p}.size`] = em.numberBetween(0.5, 6);
        out[u] = { family: family(f.family, `${p}.family`, errors), weight, size };
      }
      return out;
    }
    case 'buttons.primary': {
      const o = rec(value);
      if (!(BUTTON_SHAPES as readonly unknown[]).includes(o.shape)) errors[`${path}.shape`] = pm.notExpectedOption(String(o.shape));
      if (!(BUTTON_FILLS as readonly unknown[]).includes(o.fill)) errors[`${path}.fill`] = pm.notExpectedOption(String(o.fill));
      if (typeof o.uppercase !== 'boolean') errors[`${path}.uppercase`] = pm.notExpectedOption(String(o.uppercase));
      return { shape: o.shape, fill: o.fill, uppercase: o.uppercase === true } as ButtonStyle;
    }
    case 'spacing.scale':
      if (!(SPACING_SCALES as readonly unknown[]).includes(value)) errors[path] = pm.notExpectedOption(String(value));
      return value;
  }
}

export interface StyleChangeResult {
  ok: boolean;
  styles?: SiteStyles;
  message?: string;
  errors: Errors;
}

/**
 * Applies the changed paths to the styles. Only DIRTY_PATHS are accepted; every value is checked;
 * the default/active theme ids must name an existing theme. Nothing is applied when anything fails.
 */
export function applyStyleChanges(styles: SiteStyles, changes: Record<string, unknown>): StyleChangeResult {
  const errors: Errors = {};
  const next: SiteStyles = JSON.parse(JSON.stringify(styles)) as SiteStyles;
  for (const [path, value] of Object.entries(changes)) {
    if (!(DIRTY_PATHS as readonly string[]).includes(path)) {
      errors[path] = pm.notExpectedOption(path);
      continue;
    }
    const v = checkStylePath(path as DirtyPath, value, errors);
    const [area, key] = path.split('.') as [keyof SiteStyles, string];
    (next[area] as Record<string, unknown>)[key] = v;
  }
  if (Object.keys(errors).length === 0) {
    if (!next.colors.themes.some((t) => t.id === next.colors.defaultThemeId))
      errors['colors.defaultThemeId'] = pm.notExpectedOption(next.colors.defaultThemeId);
    if (!next.fonts.themes.some((t) => t.id === next.fonts.activeThemeId))
      errors['fonts.activeThemeId'] = pm.notExpectedOption(next.fonts.activeThemeId);
  }
  const keys = Object.keys(errors);
  return keys.length ? { ok: false, message: errors[keys[0]], errors } : { ok: true, styles: next, errors };
}

/** Which dirty paths differ between two styles (what an editor sends). */
export function dirtyPaths(before: SiteStyles, after: SiteStyles): DirtyPath[] {
  return DIRTY_PATHS.filter((p) => {
    const [area, key] = p.split('.') as [keyof SiteStyles, string];
    return JSON.stringify((before[area] as Record<string, unknown>)[key]) !== JSON.stringify((after[area] as Record<string, unknown>)[key]);
  });
}

/**
 * CSS variables of the styles: fonts by usage category on `scope`, and one `.ts-theme-{id}` class
 * per colour theme (--ts-bg, --ts-text, --ts-accent, --ts-accent-text). Every value was checked
 * (hex colours, plain font lists), so nothing here can end the rule.
 */
export function stylesCss(styles: SiteStyles, scope = '.ts-layout'): string {
  const f = styles.fonts.usageCategories;
  const font = (u: FontUsage) => `--ts-font-${u}:${f[u].family};--ts-weight-${u}:${f[u].weight};--ts-size-${u}:${f[u].size}rem;`;
  const out = [`${scope}{${FONT_USAGE_CATEGORIES.map(font).join('')}}`];
  for (const t of styles.colors.themes) {
    out.push(
      `${scope} .ts-theme-${t.id}{--ts-bg:${t.background};--ts-text:${textColourOn(t.background, t.text)};--ts-accent:${t.accent};--ts-accent-text:${textColourOn(t.accent)};}`,
    );
  }
  return out.join('\n');
}

/**
 * The site's design tokens (issue #27): the theme's own variables (site.css) set from the styles, so
 * every page, island and system page that uses them follows Site styles. --accent and --accent-text
 * from the palette; --bg and --fg from the default section theme; --btn-* (font, weight, size, shape,
 * fill, case) for primary buttons; --ts-space for the spacing scale.
 */
export function tokensCss(styles: SiteStyles): string {
  const p = styles.colors.palette;
  const def = styles.colors.themes.find((t) => t.id === styles.colors.defaultThemeId) ?? styles.colors.themes[0];
  const b = styles.buttons.primary;
  const accentText = textColourOn(p.accent);
  const solid = b.fill === 'solid';
  const vars = [
    `--accent:${p.accent}`,
    `--accent-text:${accentText}`,
    `--ts-palette-accent:${p.accent}`,
    `--ts-palette-light-accent:${p.lightAccent}`,
    `--ts-palette-light:${p.light}`,
    `--ts-palette-dark-accent:${p.darkAccent}`,
    `--ts-palette-dark:${p.dark}`,
    ...(def ? [`--bg:${def.background}`, `--fg:${textColourOn(def.background, def.text)}`] : []),
    '--btn-font:var(--ts-font-buttons)',
    '--btn-weight:var(--ts-weight-buttons)',
    '--btn-size:var(--ts-size-buttons)',
    `--btn-radius:${BUTTON_RADIUS[b.shape]}`,
    `--btn-bg:${solid ? p.accent : 'transparent'}`,
    `--btn-fg:${solid ? accentText : p.accent}`,
    `--btn-border:${solid ? '0 solid transparent' : `2px solid ${p.accent}`}`,
    `--btn-transform:${b.uppercase ? 'uppercase' : 'none'}`,
    `--ts-space:${SPACING_FACTOR[styles.spacing.scale]}`,
  ];
  // :root:root outranks the layout's own `:root{--accent}` rule, wherever the two sit in <head>.
  return `:root:root{${vars.join(';')}}`;
}

/**
 * The site-wide part of saved styles: the design tokens and font variables on :root and the usage
 * categories applied to the theme's body text, headings and buttons, plus the colour theme classes
 * anywhere on the site.
 */
export function siteStylesCss(styles: SiteStyles): string {
  return [
    stylesCss(styles, ':root'),
    tokensCss(styles),
    'body{font-family:var(--ts-font-body)}',
    'h1,h2,h3,h4,h5,h6{font-family:var(--ts-font-headings);font-weight:var(--ts-weight-headings)}',
    'button,.sqs-block-button-element{font-family:var(--ts-font-buttons);font-weight:var(--ts-weight-buttons)}',
  ].join('\n');
}

/** Inline styles of the site's HTML emails: the body text and the call-to-action button. */
export interface EmailLook {
  body: string;
  button: string;
}

/** The emails' look until an owner saves site styles. */
export const DEFAULT_EMAIL_LOOK: EmailLook = Object.freeze({
  body: 'font-family:system-ui,sans-serif;line-height:1.5;color:#1d1d1f',
  button: 'display:inline-block;padding:10px 16px;background:#1d1d1f;color:#fff;text-decoration:none;border-radius:6px',
});

/**
 * The emails' look from saved site styles: body and button fonts (mail programs that cannot load the
 * site's fonts fall back along the same lists), the accent as the button colour, the button shape.
 * Fit for a style="" attribute: colours are checked hex values and font lists cannot hold `"`, `<` or
 * `&` (their double quotes become single ones).
 */
export function emailLook(styles: SiteStyles | null): EmailLook {
  if (!styles) return DEFAULT_EMAIL_LOOK;
  const f = styles.fonts.usageCategories;
  const q = (list: string) => list.replace(/"/g, "'");
  const p = styles.colors.palette;
  const b = styles.buttons.primary;
  const solid = b.fill === 'solid';
  return {
    body: `font-family:${q(f.body.family)};line-height:1.5;color:#1d1d1f`,
    button:
      `display:inline-block;padding:10px 16px;font-family:${q(f.buttons.family)};font-weight:${f.buttons.weight};` +
      `background:${solid ? p.accent : 'transparent'};color:${solid ? textColourOn(p.accent) : p.accent};` +
      `border:2px solid ${p.accent};text-decoration:none;border-radius:${BUTTON_RADIUS[b.shape]}` +
      (b.uppercase ? ';text-transform:uppercase' : ''),
  };
}

import { describe, expect, it } from 'vitest';
import {
  applyStyleChanges,
  DEFAULT_EMAIL_LOOK,
  defaultSiteStyles,
  emailLook,
  normaliseStyles,
  tokensCss,
  type SiteStyles,
} from '../../../src/core/site-styles.js';
import { newsletterConfirmationEmail } from '../../../src/server/engagement/emails.js';
import { FONT_LIBRARY, firstFamily, fontFacesNeeded, libraryFontOf, nearestWeight } from '../../../src/core/font-library.js';
import { fontFaceCss, siteFontFacesCss } from '../../../src/server/editor/fonts.js';

const font = (id: string) => FONT_LIBRARY.find((f) => f.id === id)!;

describe('design tokens of site styles', () => {
  it('set the theme variables from the palette, the default section theme, the button style and the spacing', () => {
    const s = defaultSiteStyles();
    s.colors.palette.accent = '#f5d76e';
    s.colors.defaultThemeId = 'dark';
    s.buttons.primary = { shape: 'rounded', fill: 'outline', uppercase: true };
    s.spacing.scale = 'compact';
    const css = tokensCss(s);
    expect(css.startsWith(':root:root{')).toBe(true);
    // A light accent gets dark text (the dark-colour test); the dark default theme gives light text on --bg.
    expect(css).toContain('--accent:#f5d76e;--accent-text:#1f1d1a;');
    expect(css).toContain('--bg:#1f1d1a;--fg:#ffffff;');
    // Outline buttons: no fill, the accent as text and border.
    expect(css).toContain(
      '--btn-radius:8px;--btn-bg:transparent;--btn-fg:#f5d76e;--btn-border:2px solid #f5d76e;--btn-transform:uppercase;',
    );
    expect(css).toContain('--ts-space:0.75');
    expect(css).toContain('--btn-font:var(--ts-font-buttons);--btn-weight:var(--ts-weight-buttons);');
  });

  it('read styles saved before buttons and spacing existed with their defaults', () => {
    const old = defaultSiteStyles() as Partial<SiteStyles>;
    delete old.buttons;
    delete old.spacing;
    const s = normaliseStyles(JSON.parse(JSON.stringify(old)) as Partial<SiteStyles>);
    expect(s.buttons.primary).toEqual({ shape: 'pill', fill: 'solid', uppercase: false });
    expect(s.spacing.scale).toBe('comfortable');
    const r = applyStyleChanges(s, { 'buttons.primary': { shape: 'square', fill: 'solid', uppercase: false } });
    expect(r.ok).toBe(true);
    expect(r.styles!.buttons.primary.shape).toBe('square');
  });
});

describe('font library', () => {
  it('finds a family by the first name of a font list and snaps weights to the shipped ones', () => {
    expect(firstFamily('"Source Serif 4", Georgia, serif')).toBe('Source Serif 4');
    expect(libraryFontOf(font('source-serif-4').stack)?.id).toBe('source-serif-4');
    expect(libraryFontOf('Georgia, serif')).toBeUndefined();
    expect(nearestWeight(font('lora'), 300)).toBe(400);
    expect(nearestWeight(font('lora'), 900)).toBe(700);
    expect(nearestWeight(font('open-sans'), 900)).toBe(800);
    expect(
      fontFacesNeeded([
        { family: font('lora').stack, weight: 900 },
        { family: font('inter').stack, weight: 400 },
        { family: font('inter').stack, weight: 700 },
        { family: 'Georgia, serif', weight: 400 },
      ]),
    ).toEqual(
      new Map([
        ['lora', [700]],
        ['inter', [400, 700]],
      ]),
    );
  });

  it('every family of the library is installed and yields same-site @font-face rules for each weight it lists', () => {
    for (const f of FONT_LIBRARY) {
      const s = defaultSiteStyles();
      s.fonts.usageCategories.body = { family: f.stack, weight: f.weights[0]!, size: 1 };
      const css = siteFontFacesCss(s);
      expect(css, f.id).toContain(`font-family:'${f.name}';font-style:normal;font-display:swap;font-weight:${f.weights[0]};`);
      expect(
        [...css.matchAll(/url\(([^)]*)\)/g)].every((m) => m[1]!.startsWith(`/site-fonts/${f.id}/`)),
        f.id,
      ).toBe(true);
      for (const w of f.weights) expect(fontFaceCss(f.id, w), `${f.id} ${w}`).toContain(`-latin-${w}-normal.woff2`);
    }
    expect(fontFaceCss('inter', 950)).toBe('');
    // System fonts need no @font-face at all.
    expect(siteFontFacesCss(defaultSiteStyles())).toBe('');
  });
});

describe('the look of the site emails', () => {
  it('takes the accent, button shape and fonts of saved styles, fit for a style attribute; the default look until then', () => {
    expect(emailLook(null)).toBe(DEFAULT_EMAIL_LOOK);
    const s = defaultSiteStyles();
    s.colors.palette.accent = '#aa3300';
    s.fonts.usageCategories.buttons.family = font('lora').stack;
    s.buttons.primary = { shape: 'square', fill: 'solid', uppercase: true };
    const look = emailLook(s);
    expect(look.button).toContain('background:#aa3300;color:#ffffff;');
    expect(look.button).toContain("font-family:'Lora', Georgia, 'Times New Roman', serif;");
    expect(look.button).toContain('border-radius:0;text-transform:uppercase');
    expect(look.button + look.body).not.toMatch(/["<>&]/);
    const mail = newsletterConfirmationEmail({ storeName: 'Shop', listName: 'News', confirmUrl: 'https://example.com/c', look });
    expect(mail.html).toContain(`<a href="https://example.com/c" style="${look.button}">Confirm subscription</a>`);
    expect(newsletterConfirmationEmail({ storeName: 'Shop', listName: 'News', confirmUrl: 'https://example.com/c' }).html).toContain(
      `style="${DEFAULT_EMAIL_LOOK.button}"`,
    );
  });
});

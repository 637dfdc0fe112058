/**
 * The site font library (issue #27; pure): open-licensed families the site serves from itself (the
 * installed `@fontsource` packages), plus the two system stacks that need no download. A family value
 * in site styles is a CSS font list; its first name says which library family (if any) it uses, and
 * only the families (and weights) the styles use get @font-face rules (server/editor/fonts.ts).
 */

export interface LibraryFont {
  /** The `@fontsource/<id>` package, and the folder of its files under /site-fonts/. */
  id: string;
  name: string;
  category: 'sans-serif' | 'serif' | 'display';
  /** Static weights the package ships (normal style). */
  weights: readonly number[];
  /** The CSS font list stored in site styles. */
  stack: string;
  /** SIL Open Font License or Apache 2.0, as the package declares. */
  license: 'OFL-1.1' | 'Apache-2.0';
}

const ALL = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
const SANS = 'system-ui, -apple-system, "Segoe UI", sans-serif';
const SERIF = 'Georgia, "Times New Roman", serif';

export const FONT_LIBRARY: readonly LibraryFont[] = Object.freeze([
  { id: 'inter', name: 'Inter', category: 'sans-serif', weights: ALL, stack: `"Inter", ${SANS}`, license: 'OFL-1.1' },
  { id: 'roboto', name: 'Roboto', category: 'sans-serif', weights: ALL, stack: `"Roboto", ${SANS}`, license: 'OFL-1.1' },
  {
    id: 'open-sans',
    name: 'Open Sans',
    category: 'sans-serif',
    weights: [300, 400, 500, 600, 700, 800],
    stack: `"Open Sans", ${SANS}`,
    license: 'OFL-1.1',
  },
  { id: 'montserrat', name: 'Montserrat', category: 'sans-serif', weights: ALL, stack: `"Montserrat", ${SANS}`, license: 'OFL-1.1' },
  { id: 'dm-sans', name: 'DM Sans', category: 'sans-serif', weights: ALL, stack: `"DM Sans", ${SANS}`, license: 'OFL-1.1' },
  { id: 'work-sans', name: 'Work Sans', category: 'sans-serif', weights: ALL, stack: `"Work Sans", ${SANS}`, license: 'OFL-1.1' },
  { id: 'lora', name: 'Lora', category: 'serif', weights: [400, 500, 600, 700], stack: `"Lora", ${SERIF}`, license: 'OFL-1.1' },
  {
    id: 'merriweather',
    name: 'Merriweather',
    category: 'serif',
    weights: [300, 400, 500, 600, 700, 800, 900],
    stack: `"Merriweather", ${SERIF}`,
    license: 'OFL-1.1',
  },
  {
    id: 'source-serif-4',
    name: 'Source Serif 4',
    category: 'serif',
    weights: [200, 300, 400, 500, 600, 700, 800, 900],
    stack: `"Source Serif 4", ${SERIF}`,
    license: 'OFL-1.1',
  },
  {
    id: 'playfair-display',
    name: 'Playfair Display',
    category: 'display',
    weights: [400, 500, 600, 700, 800, 900],
    stack: `"Playfair Display", ${SERIF}`,
    license: 'OFL-1.1',
  },
] satisfies LibraryFont[]);

/** Fonts every device has: nothing to download. */
export const SYSTEM_FONTS: ReadonlyArray<{ name: string; stack: string }> = Object.freeze([
  { name: 'System sans-serif', stack: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  { name: 'Georgia', stack: 'Georgia, "Times New Roman", serif' },
]);

/** The first family name of a CSS font list, unquoted ('"DM Sans", system-ui' -> 'DM Sans'). */
export function firstFamily(list: string): string {
  return (list.split(',')[0] ?? '').replace(/["']/g, '').trim();
}

/** The library family a CSS font list starts with, if any. */
export function libraryFontOf(list: string): LibraryFont | undefined {
  const first = firstFamily(list).toLowerCase();
  return FONT_LIBRARY.find((f) => f.name.toLowerCase() === first);
}

/** The shipped weight nearest to `weight` (a lighter one on a tie, as browsers pick for weights up to 500). */
export function nearestWeight(font: LibraryFont, weight: number): number {
  let best = font.weights[0]!;
  for (const w of font.weights) if (Math.abs(w - weight) < Math.abs(best - weight)) best = w;
  return best;
}

/** Which library families, at which weights, a set of (font list, weight) uses need: id -> sorted weights. */
export function fontFacesNeeded(uses: ReadonlyArray<{ family: string; weight: number }>): Map<string, number[]> {
  const out = new Map<string, Set<number>>();
  for (const u of uses) {
    const f = libraryFontOf(u.family);
    if (!f) continue;
    const set = out.get(f.id) ?? new Set<number>();
    set.add(nearestWeight(f, u.weight));
    out.set(f.id, set);
  }
  return new Map([...out].map(([id, s]) => [id, [...s].sort((a, b) => a - b)]));
}

import { describe, it, expect } from 'vitest';
import {
  addBlock,
  addSection,
  BLOCK_KINDS,
  blockLabel,
  canonicalJson,
  chartDataset,
  checkLink,
  checkMediaUrl,
  CHART_MAX_COLUMNS,
  CHART_MAX_ROWS,
  countBlocks,
  createBlock,
  deleteBlock,
  deleteSection,
  duplicateBlock,
  duplicateSection,
  emptyLayout,
  isRenderedBlock,
  moveBlock,
  moveBlockDown,
  moveBlockUp,
  moveSection,
  PAGE_STATUS_LABELS,
  parseLayout,
  resizeBlock,
  serializeLayout,
  styleSection,
  validateLayout,
  variantName,
  type OpResult,
  type PageLayout,
} from '../../../src/core/layout.js';
import { applyStyleChanges, defaultSiteStyles, dirtyPaths, stylesCss, textColourOn } from '../../../src/core/site-styles.js';
import { BlockType } from '../../../src/core/enums.js';
import { pageEditor as em, platform as pm } from '../../../src/core/messages.js';
import { MAX_BLOCKS_PER_LAYOUT } from '../../../src/core/constants.js';

let n = 0;
const ids = { newId: (p: string) => `${p}u${++n}` };

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}

function withSection(): PageLayout {
  return must(addSection(emptyLayout(), 0, ids));
}

function order(l: PageLayout, s = 0): string[] {
  return l.sections[s].blocks.map((b) => String(b.data.text ?? b.data.html ?? b.id));
}

const quote = (text: string, h = 2) => createBlock(BlockType.QUOTE, { ...ids, h, data: { text } });

describe('layout model: operations', () => {
  it('adds blocks on new rows at the bottom of a section, and never mutates its input', () => {
    const l0 = withSection();
    const s = l0.sections[0].id;
    const l1 = must(addBlock(l0, s, quote('a', 2)));
    const l2 = must(addBlock(l1, s, quote('b', 3)));
    expect(l0.sections[0].blocks).toHaveLength(0);
    expect(l1.sections[0].blocks).toHaveLength(1);
    expect(l2.sections[0].blocks.map((b) => b.desktop.y)).toEqual([0, 2]);
    expect(l2.sections[0].blocks.map((b) => b.mobile.y)).toEqual([0, 2]);
    const l3 = must(addBlock(l2, s, quote('first'), 0));
    expect(order(l3)).toEqual(['first', 'a', 'b']);
  });

  it('refuses the 61st block with the limit message', () => {
    let l = withSection();
    for (let i = 0; i < MAX_BLOCKS_PER_LAYOUT; i++)
      l = must(addBlock(l, l.sections[0].id, createBlock(BlockType.SPACER, { ...ids, h: 1 })));
    expect(countBlocks(l)).toBe(60);
    const r = addBlock(l, l.sections[0].id, createBlock(BlockType.SPACER, ids));
    expect(r).toEqual({ ok: false, message: em.blockLimit(60) });
    expect(em.blockLimit(60)).toBe('A page can have at most 60 blocks. Delete a block to add another.');
    // Duplicating counts too, and a stored layout over the limit does not validate.
    expect(duplicateBlock(l, l.sections[0].blocks[0].id, ids)).toEqual({ ok: false, message: em.blockLimit(60) });
    const over = { ...l, sections: [{ ...l.sections[0], blocks: [...l.sections[0].blocks, createBlock(BlockType.SPACER, ids)] }] };
    expect(validateLayout(over)).toMatchObject({ ok: false, message: em.blockLimit(60) });
  });

  it('refuses the 21st gallery and the 51st image of a gallery (photo-gallery-service limits)', () => {
    const img = { assetUrl: '/demo-media/gallery-1.jpg', altText: 'Valley' };
    const gallery = (images = 1) => createBlock(BlockType.GALLERY, { ...ids, data: { images: Array.from({ length: images }, () => img) } });
    let l = withSection();
    for (let i = 0; i < 20; i++) l = must(addBlock(l, l.sections[0].id, gallery()));
    expect(addBlock(l, l.sections[0].id, gallery())).toEqual({ ok: false, message: em.galleryLimit(20) });
    expect(em.galleryLimit(20)).toBe('A page can have at most 20 galleries. Delete a gallery to add another.');
    // Another kind of block still goes in; duplicating a gallery or its section counts too.
    expect(addBlock(l, l.sections[0].id, quote('x')).ok).toBe(true);
    expect(duplicateBlock(l, l.sections[0].blocks[0].id, ids)).toEqual({ ok: false, message: em.galleryLimit(20) });
    expect(duplicateSection(l, l.sections[0].id, ids)).toEqual({ ok: false, message: em.galleryLimit(20) });
    expect(validateLayout(l).ok).toBe(true);
    const over = { ...l, sections: [{ ...l.sections[0], blocks: [...l.sections[0].blocks, gallery()] }] };
    expect(validateLayout(over)).toMatchObject({ ok: false, message: em.galleryLimit(20), errors: { sections: em.galleryLimit(20) } });
    // A gallery variant (slideshow) counts as a gallery.
    const slideshow = { ...gallery(), type: BlockType.GALLERY_SLIDESHOW };
    expect(validateLayout({ ...l, sections: [{ ...l.sections[0], blocks: [...l.sections[0].blocks, slideshow] }] })).toMatchObject({
      ok: false,
      message: em.galleryLimit(20),
    });
    // 50 images fit; the 51st is refused on the gallery's images.
    const one = (b: ReturnType<typeof gallery>) => {
      const empty = withSection();
      return must(addBlock(empty, empty.sections[0].id, b));
    };
    const fifty = one(gallery(50));
    expect(validateLayout(fifty).ok).toBe(true);
    const big = one(gallery(51));
    const r = validateLayout(big);
    expect(r).toMatchObject({ ok: false, message: em.galleryImageLimit(50) });
    expect(r.errors['sections.0.blocks.0.data.images']).toBe('A gallery can have at most 50 images.');
  });

  it('moves blocks up and down (keyboard), across section edges, and to an index', () => {
    let l = withSection();
    const s = l.sections[0].id;
    for (const t of ['a', 'b', 'c']) l = must(addBlock(l, s, quote(t)));
    const [a, , c] = l.sections[0].blocks;
    l = must(moveBlockUp(l, c.id));
    expect(order(l)).toEqual(['a', 'c', 'b']);
    // Grid rows follow the reading order.
    expect(l.sections[0].blocks.map((b) => b.desktop.y)).toEqual([0, 2, 4]);
    l = must(moveBlockDown(l, a.id));
    expect(order(l)).toEqual(['c', 'a', 'b']);
    expect(must(moveBlockUp(l, l.sections[0].blocks[0].id))).toEqual(l);
    l = must(addSection(l, 1, ids));
    const s2 = l.sections[1].id;
    l = must(moveBlockDown(l, l.sections[0].blocks[2].id));
    expect(order(l, 0)).toEqual(['c', 'a']);
    expect(order(l, 1)).toEqual(['b']);
    l = must(moveBlockUp(l, l.sections[1].blocks[0].id));
    expect(order(l, 0)).toEqual(['c', 'a', 'b']);
    l = must(moveBlock(l, l.sections[0].blocks[0].id, s2, 0));
    expect(order(l, 1)).toEqual(['c']);
    l = must(moveBlock(l, l.sections[0].blocks[1].id, s, 0));
    expect(order(l, 0)).toEqual(['b', 'a']);
    expect(moveBlock(l, 'nope', s, 0)).toEqual({ ok: false, message: em.BLOCK_NOT_FOUND });
  });

  it('keeps blocks of different heights from landing on each other after a move', () => {
    let l = withSection();
    const s = l.sections[0].id;
    l = must(addBlock(l, s, quote('short', 1)));
    l = must(addBlock(l, s, quote('tall', 5)));
    l = must(moveBlockUp(l, l.sections[0].blocks[1].id));
    const [tall, short] = l.sections[0].blocks;
    expect(tall.desktop).toMatchObject({ y: 0, h: 5 });
    expect(short.desktop.y).toBeGreaterThanOrEqual(5);
  });

  it('resizes within the 12 columns, duplicates and deletes blocks and sections', () => {
    let l = withSection();
    const s = l.sections[0].id;
    l = must(addBlock(l, s, quote('a')));
    const id = l.sections[0].blocks[0].id;
    l = must(resizeBlock(l, id, 'desktop', { w: 6, x: 9 }));
    expect(l.sections[0].blocks[0].desktop).toMatchObject({ w: 6, x: 6 });
    l = must(resizeBlock(l, id, 'mobile', { w: 40, h: 0 }));
    expect(l.sections[0].blocks[0].mobile).toMatchObject({ w: 12, h: 1, x: 0 });
    l = must(duplicateBlock(l, id, ids));
    expect(order(l)).toEqual(['a', 'a']);
    expect(new Set(l.sections[0].blocks.map((b) => b.id)).size).toBe(2);
    l = must(deleteBlock(l, id));
    expect(l.sections[0].blocks).toHaveLength(1);
    l = must(duplicateSection(l, s, ids));
    expect(l.sections).toHaveLength(2);
    expect(l.sections[1].blocks[0].id).not.toBe(l.sections[0].blocks[0].id);
    l = must(moveSection(l, l.sections[1].id, 0));
    l = must(styleSection(l, l.sections[0].id, { theme: 'dark', background: '#102030' }));
    expect(l.sections[0]).toMatchObject({ theme: 'dark', background: '#102030' });
    l = must(deleteSection(l, l.sections[0].id));
    expect(l.sections).toHaveLength(1);
    expect(deleteSection(l, 'nope')).toEqual({ ok: false, message: em.SECTION_NOT_FOUND });
  });

  it('splits a variant code into its block type and variant', () => {
    const b = createBlock(BlockType.IMAGE_POSTER, ids);
    expect(b).toMatchObject({ type: BlockType.IMAGE, variant: BlockType.IMAGE_POSTER });
    expect(variantName(b.variant)).toBe('poster');
    expect(createBlock(BlockType.CHART, ids).variant).toBe(BlockType.CHART_BAR);
    expect(createBlock(BlockType.BUTTON, ids).variant).toBeNull();
    expect(isRenderedBlock(BlockType.TOCK)).toBe(false);
    expect(blockLabel(BlockType.TOCK_RESERVATIONS)).toBe('Tock reservations');
    expect(PAGE_STATUS_LABELS).toMatchObject({
      draft: 'Draft',
      scheduled: 'Scheduled',
      'needs-review': 'Needs Review',
      private: 'Private',
      published: 'Published',
    });
  });
});

describe('layout model: validation and the canonical round trip', () => {
  it('round-trips every block kind byte for byte', () => {
    let l = withSection();
    // A newsletter block names its mailing list (its newsletter form): without one the layout is refused (below).
    for (const k of BLOCK_KINDS)
      for (const v of k.variants.length ? k.variants : [null])
        l = must(
          addBlock(
            l,
            l.sections[0].id,
            createBlock(v ?? k.type, k.type === BlockType.NEWSLETTER ? { ...ids, data: { formId: 'newsletter-form' } } : ids),
          ),
        );
    l = must(addBlock(l, l.sections[0].id, createBlock(BlockType.WEBSITE_COMPONENT, { ...ids, data: { b: 1, a: [true, null, 'x'] } })));
    const text = serializeLayout(l);
    const again = serializeLayout(validateLayout(parseLayout(text)).layout!);
    expect(again).toBe(text);
    // Key order of the input does not matter.
    const shuffled = JSON.parse(text, (_k, v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
    );
    expect(serializeLayout(shuffled)).toBe(text);
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,1]},"b":1}');
  });

  it("refuses a newsletter block without a mailing list: 'A List must be selected' on its formId", () => {
    const base = withSection();
    const l = must(addBlock(base, base.sections[0].id, createBlock(BlockType.NEWSLETTER, ids)));
    const r = validateLayout(l);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual({ 'sections.0.blocks.0.data.formId': 'A List must be selected' });
    const chosen = l.sections[0].blocks[0];
    expect(
      validateLayout({
        ...l,
        sections: [{ ...l.sections[0], blocks: [{ ...chosen, data: { ...chosen.data, formId: 'newsletter-form' } }] }],
      }).ok,
    ).toBe(true);
  });

  it('drops unknown keys, fills defaults, and reports bad input by path with the specs’ messages', () => {
    const r = validateLayout({
      sections: [
        {
          id: 's1',
          theme: 'white',
          extra: 'dropped',
          blocks: [
            {
              id: 'b1',
              type: BlockType.BUTTON,
              data: { label: 'Go', link: 'www.example.com', junk: 1 },
              desktop: { x: 0, y: 0, w: 12, h: 1 },
              mobile: { x: 0, y: 0, w: 12, h: 1 },
            },
          ],
        },
      ],
    });
    expect(r.ok).toBe(true);
    expect(r.layout!.sections[0]).not.toHaveProperty('extra');
    expect(r.layout!.sections[0].blocks[0].data).toEqual({
      label: 'Go',
      link: 'https://www.example.com',
      style: 'primary',
      size: 'medium',
      align: 'left',
      newWindow: false,
    });

    const bad = validateLayout({
      sections: [
        {
          id: 's1',
          blocks: [
            { id: 'b1', type: 999, data: {} },
            { id: 'b1', type: BlockType.BUTTON, data: { label: '', link: 'javascript:alert(1)' } },
            { id: 'b3', type: BlockType.IMAGE, variant: BlockType.CHART_PIE, data: { assetUrl: '/../secret' } },
            { id: 'b4', type: BlockType.MARKDOWN, data: {}, desktop: { x: 8, y: 0, w: 6, h: 1 } },
          ],
        },
      ],
    });
    expect(bad.ok).toBe(false);
    expect(bad.errors).toMatchObject({
      'sections.0.blocks.0.type': pm.notExpectedOption('999'),
      'sections.0.blocks.1.id': pm.tagExists('block'),
      'sections.0.blocks.1.data.label': em.REQUIRED,
      'sections.0.blocks.1.data.link': pm.linksFormattedAs('https://www.example.com', 'www.example.com'),
      'sections.0.blocks.2.variant': pm.notExpectedOption(String(BlockType.CHART_PIE)),
      'sections.0.blocks.2.data.assetUrl': pm.notValidPageUrl('/../secret'),
      'sections.0.blocks.3.desktop.w': em.outsideGrid(12),
    });
    expect(validateLayout('nope')).toMatchObject({ ok: false, message: em.NOT_A_LAYOUT });
  });

  it('checks a donation block: title, text, 1 to 6 whole amounts in minor units, the custom toggle; round trip', () => {
    const at = (data: Record<string, unknown>) =>
      validateLayout({
        sections: [
          {
            id: 's1',
            blocks: [
              { id: 'b1', type: BlockType.DONATION, data, desktop: { x: 0, y: 0, w: 12, h: 10 }, mobile: { x: 0, y: 0, w: 12, h: 10 } },
            ],
          },
        ],
      });
    const good = at({ title: 'Help the studio', text: 'Kilns are expensive.', amounts: [500, 1500], allowCustom: false, junk: 1 });
    expect(good.ok).toBe(true);
    expect(good.layout!.sections[0].blocks[0].data).toEqual({
      title: 'Help the studio',
      text: 'Kilns are expensive.',
      amounts: [500, 1500],
      allowCustom: false,
    });
    const text = serializeLayout(good.layout!);
    expect(serializeLayout(validateLayout(parseLayout(text)).layout!)).toBe(text);
    // Defaults: a new block suggests amounts and allows a custom one.
    expect(createBlock(BlockType.DONATION, ids).data).toMatchObject({ amounts: [1000, 2500, 5000], allowCustom: true });
    expect(isRenderedBlock(BlockType.DONATION)).toBe(true);
    expect(blockLabel(BlockType.DONATION)).toBe('Donation');

    expect(at({ amounts: [] }).errors).toMatchObject({ 'sections.0.blocks.0.data.amounts': em.listTooShort(1) });
    expect(at({}).errors).toMatchObject({ 'sections.0.blocks.0.data.amounts': em.listTooShort(1) });
    expect(at({ amounts: [1, 2, 3, 4, 5, 6, 7] }).errors).toMatchObject({ 'sections.0.blocks.0.data.amounts': em.listTooLong(6) });
    const bad = at({ amounts: [0, 12.5, 'ten', 100_000_001], allowCustom: 'yes', title: 'x'.repeat(201) });
    expect(bad.ok).toBe(false);
    expect(bad.errors).toMatchObject({
      'sections.0.blocks.0.data.amounts.0': em.numberBetween(1, 100_000_000),
      'sections.0.blocks.0.data.amounts.1': em.numberBetween(1, 100_000_000),
      'sections.0.blocks.0.data.amounts.2': em.numberBetween(1, 100_000_000),
      'sections.0.blocks.0.data.amounts.3': em.numberBetween(1, 100_000_000),
      'sections.0.blocks.0.data.allowCustom': pm.notExpectedOption('yes'),
      'sections.0.blocks.0.data.title': em.tooLong(200),
    });
  });

  it('checks links and media sources', () => {
    expect(checkLink('/about')).toEqual({ ok: true, value: '/about' });
    expect(checkLink('example.com/x')).toEqual({ ok: true, value: 'https://example.com/x' });
    expect(checkLink('mailto:a@example.com').ok).toBe(true);
    expect(checkLink('mailto:nope').message).toBe(pm.ENTER_VALID_EMAIL);
    expect(checkLink('/a b').message).toBe('/a b is not a valid page URL');
    expect(checkLink('//evil.example').ok).toBe(false);
    expect(checkLink('ftp://x').message).toBe('Links must be formatted as https://www.example.com or www.example.com');
    expect(checkMediaUrl('/uploads/abc.png').ok).toBe(true);
    expect(checkMediaUrl('/shop').ok).toBe(false);
    expect(checkMediaUrl('https://cdn.example.com/a.mp4').ok).toBe(true);
  });

  it('gives the chart dataset messages: no column, no row, missing data, truncation', () => {
    expect(chartDataset({ columns: [], rows: [{ label: 'a', values: [1] }] }).error?.message).toBe(pm.DATASET_NO_COLUMN);
    expect(chartDataset({ columns: ['x'], rows: [] }).error?.message).toBe(pm.DATASET_NO_ROW);
    const gaps = chartDataset({ columns: ['x', 'y'], rows: [{ label: 'a', values: [1] }] });
    expect(gaps.error).toBeUndefined();
    expect(gaps.warnings).toEqual([pm.DATASET_MISSING_DATA]);
    expect(gaps.rows[0].values).toEqual([1, null]);
    const big = chartDataset({
      columns: Array.from({ length: CHART_MAX_COLUMNS + 2 }, (_, i) => `c${i}`),
      rows: Array.from({ length: CHART_MAX_ROWS + 5 }, (_, i) => ({
        label: `r${i}`,
        values: Array.from({ length: CHART_MAX_COLUMNS + 2 }, () => 1),
      })),
    });
    expect(big.columns).toHaveLength(CHART_MAX_COLUMNS);
    expect(big.rows).toHaveLength(CHART_MAX_ROWS);
    expect(big.warnings).toEqual([pm.datasetTruncated(CHART_MAX_ROWS, CHART_MAX_COLUMNS)]);
  });
});

describe('site styles', () => {
  it('applies only the dirty paths, checks values, and picks text colours with the dark-colour test', () => {
    const s = defaultSiteStyles();
    const r = applyStyleChanges(s, { 'colors.palette': { ...s.colors.palette, accent: '#ABC' } });
    expect(r.ok).toBe(true);
    expect(r.styles!.colors.palette.accent).toBe('#aabbcc');
    expect(dirtyPaths(s, r.styles!)).toEqual(['colors.palette']);
    expect(applyStyleChanges(s, { 'fonts.secret': 1 }).message).toBe(pm.notExpectedOption('fonts.secret'));
    expect(applyStyleChanges(s, { 'colors.defaultThemeId': 'nope' }).message).toBe(pm.notExpectedOption('nope'));
    expect(applyStyleChanges(s, { 'colors.themes': [s.colors.themes[0], s.colors.themes[0]] }).message).toBe(pm.tagExists('colour theme'));
    expect(textColourOn('#000000')).toBe('#ffffff');
    expect(textColourOn('#ffffff')).toBe('#1f1d1a');
    expect(textColourOn('#ffffff', '#123456')).toBe('#123456');
    const css = stylesCss(s);
    expect(css).toContain('.ts-theme-dark{--ts-bg:#1f1d1a;--ts-text:#ffffff;');
    expect(css).toContain('--ts-font-headings:Georgia');
  });
});

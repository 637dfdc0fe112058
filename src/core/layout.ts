/**
 * The page layout model of the editor (pure; no I/O): a page is a list of sections, a section a list
 * of blocks placed on the fluid engine's 12-column grid, each with a desktop and a mobile placement.
 *
 * - Blocks carry the platform's numeric block code (`type`, enums.ts BlockType) and, for the blocks
 *   that have them, a variant code from 1000 on (`variant`). `data` holds the block's own settings,
 *   checked and normalised per type by `validateLayout`.
 * - Every operation returns a new layout (inputs are never mutated) or a refusal with a message.
 * - `serializeLayout` is canonical: keys sorted, defaults filled, unknown keys dropped, so
 *   serialize(validate(parse(serialize(x)))) === serialize(x), byte for byte.
 *
 * Array order of `blocks` is the reading order (what screen readers and the mobile view follow).
 */
import { BLOCK_VARIANT_BASE_TYPE, BlockType, CONTENT_STATUS_LABELS, ContentStatus, enumKey, isEnumValue } from './enums';
import {
  EMPTY_LAYOUT_GRID_COLUMNS,
  EXCERPT_MAX_CHARS,
  MAX_ALBUM_TRACKS,
  MAX_BLOCKS_PER_LAYOUT,
  MAX_ITEMS_USER_ORDERABLE_COLLECTION,
  MAX_PHOTO_GALLERY_SERVICE_GALLERIES,
  PHOTO_GALLERY_SERVICE_GALLERY_SIZE,
} from './constants';
import { isValidEmail } from './forms';
import { contentLimits as lm, platform as pm, pageEditor as em } from './messages';

// ------------------------------------------------------------------------------------------------
// Types and limits
// ------------------------------------------------------------------------------------------------

/** Version of the stored layout format. */
export const LAYOUT_FORMAT = 1;
export const GRID_COLUMNS = EMPTY_LAYOUT_GRID_COLUMNS;
/** Highest row a block may start on, and the most rows one block may span. */
export const MAX_ROW = 999;
export const MAX_ROW_SPAN = 60;
export const MAX_SECTIONS_PER_LAYOUT = 30;
/** Chart datasets are truncated (with a warning) to these. */
export const CHART_MAX_ROWS = 50;
export const CHART_MAX_COLUMNS = 10;
export const MAX_TEXT_CHARS = 100_000;
export const MAX_PRICING_PLANS = 6;
/** A donation block suggests 1 to 6 amounts, each in minor units of the site currency. */
export const MAX_DONATION_AMOUNTS = 6;
export const MAX_DONATION_AMOUNT_CENTS = 100_000_000;
export const MAX_LIST_ITEMS = MAX_ITEMS_USER_ORDERABLE_COLLECTION;
/** Rows a new block spans on the desktop grid when nothing else is said. */
export const DEFAULT_BLOCK_ROWS = 2;

/** A place on the 12-column grid: column x (0-11), row y (0-999), w columns wide (x + w <= 12), h rows tall. */
export interface Placement {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Block {
  id: string;
  /** The platform block code (enums.ts BlockType), never a variant code. */
  type: number;
  /** A variant code (1000 on) of this block type, or null for blocks without variants. */
  variant: number | null;
  desktop: Placement;
  mobile: Placement;
  data: Record<string, unknown>;
}

export interface Section {
  id: string;
  /** Id of a colour theme of the site styles (site-styles.ts), e.g. 'white', 'light', 'dark'. */
  theme: string;
  /** An optional background colour (#rrggbb) over the theme; the dark-colour test picks the text colour. */
  background: string | null;
  blocks: Block[];
}

export interface PageLayout {
  format: typeof LAYOUT_FORMAT;
  sections: Section[];
}

export type Breakpoint = 'desktop' | 'mobile';

/** Where a layout is: the published copy, or the draft in one of the content statuses. */
export const PageStatus = Object.freeze({
  PUBLISHED: 'published',
  DRAFT: ContentStatus.DRAFT,
  SCHEDULED: ContentStatus.SCHEDULED,
  NEEDS_REVIEW: ContentStatus.NEEDS_REVIEW,
  PRIVATE: ContentStatus.PRIVATE,
} as const);
export type PageStatus = (typeof PageStatus)[keyof typeof PageStatus];
export const PAGE_STATUSES: readonly PageStatus[] = Object.freeze(Object.values(PageStatus));
export const PAGE_STATUS_LABELS: Readonly<Record<PageStatus, string>> = Object.freeze({
  published: em.STATUS_PUBLISHED,
  ...CONTENT_STATUS_LABELS,
});

// ------------------------------------------------------------------------------------------------
// The block catalogue: which block codes render, under which name, with which variants
// ------------------------------------------------------------------------------------------------

export interface BlockKind {
  type: number;
  /** The theme partial is `blocks/block-{name}.block`. */
  name: string;
  label: string;
  /** Variant codes this block takes (first is the default), empty when it has none. */
  variants: readonly number[];
  /** Desktop rows a new block of this kind spans. */
  rows: number;
}

const kind = (type: number, name: string, label: string, rows = DEFAULT_BLOCK_ROWS, variants: readonly number[] = []): BlockKind =>
  Object.freeze({ type, name, label, rows, variants: Object.freeze([...variants]) });

/** The blocks Tessera renders. Every other code of the enumeration is kept but shown as a placeholder. */
export const BLOCK_KINDS: readonly BlockKind[] = Object.freeze([
  kind(BlockType.HTML, 'text', 'Text'),
  kind(BlockType.MARKDOWN, 'markdown', 'Markdown'),
  kind(BlockType.IMAGE, 'image', 'Image', 6, [
    BlockType.IMAGE_INLINE,
    BlockType.IMAGE_POSTER,
    BlockType.IMAGE_CARD,
    BlockType.IMAGE_OVERLAP,
    BlockType.IMAGE_COLLAGE,
    BlockType.IMAGE_STACK,
  ]),
  kind(BlockType.GALLERY, 'gallery', 'Gallery', 8, [
    BlockType.GALLERY_GRID,
    BlockType.GALLERY_SLIDESHOW,
    BlockType.GALLERY_CAROUSEL,
    BlockType.GALLERY_STACK,
  ]),
  kind(BlockType.BUTTON, 'button', 'Button', 1),
  kind(BlockType.SPACER, 'spacer', 'Spacer', 1),
  kind(BlockType.HORIZONTAL_RULE, 'horizontal-rule', 'Line', 1),
  kind(BlockType.QUOTE, 'quote', 'Quote'),
  kind(BlockType.CODE, 'code', 'Code'),
  kind(BlockType.EMBED, 'embed', 'Embed', 6),
  kind(BlockType.VIDEO, 'video', 'Video', 6),
  kind(BlockType.AUDIO, 'audio', 'Audio'),
  kind(BlockType.ALBUM, 'album', 'Album', 6),
  kind(BlockType.MAP, 'map', 'Map', 6),
  kind(BlockType.FORM, 'form', 'Form', 8),
  kind(BlockType.NEWSLETTER, 'newsletter', 'Newsletter', 4),
  kind(BlockType.PRODUCT, 'product', 'Product', 6),
  kind(BlockType.SUMMARY_V2, 'summary', 'Summary', 8, [
    BlockType.SUMMARY_GRID,
    BlockType.SUMMARY_WALL,
    BlockType.SUMMARY_CAROUSEL,
    BlockType.SUMMARY_LIST,
  ]),
  kind(BlockType.ACCORDION, 'accordion', 'Accordion', 4),
  kind(BlockType.SOCIAL_LINKS, 'social-links', 'Social links', 1),
  kind(BlockType.SEARCH, 'search', 'Search', 1),
  kind(BlockType.CHART, 'chart', 'Chart', 8, [BlockType.CHART_BAR, BlockType.CHART_LINE, BlockType.CHART_PIE]),
  kind(BlockType.PRICING_PLAN, 'pricing-plan', 'Pricing plan', 8),
  kind(BlockType.DONATION, 'donation', 'Donation', 10),
]);

const KIND_BY_TYPE = new Map(BLOCK_KINDS.map((k) => [k.type, k]));

/** The kind of a rendered block code, or undefined for a placeholder block. */
export function blockKind(type: number): BlockKind | undefined {
  return KIND_BY_TYPE.get(type);
}

/** Whether the public site renders this block code (others are placeholders in the editor, nothing on the site). */
export function isRenderedBlock(type: number): boolean {
  return KIND_BY_TYPE.has(type);
}

/** Base codes of the enumeration (variants excluded): the codes a block's `type` may take. */
export const BLOCK_BASE_CODES: readonly number[] = Object.freeze(
  Object.values(BlockType).filter((c) => !Object.prototype.hasOwnProperty.call(BLOCK_VARIANT_BASE_TYPE, c)),
);

/** A readable name of any block or variant code: 'Image', 'IMAGE_POSTER' -> 'Image poster', 'TOCK' -> 'Tock'. */
export function blockLabel(code: number): string {
  const k = KIND_BY_TYPE.get(code);
  if (k) return k.label;
  const key = String(enumKey(BlockType, code) ?? code);
  const words = key.toLowerCase().split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The variant word of a variant code: 1012 -> 'poster', 1004 -> 'wall'. */
export function variantName(code: number | null): string | null {
  if (code === null) return null;
  const key = enumKey(BlockType, code);
  if (!key || !Object.prototype.hasOwnProperty.call(BLOCK_VARIANT_BASE_TYPE, code)) return null;
  return String(key).split('_').slice(1).join('-').toLowerCase();
}

// ------------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------------

export type OpResult = { ok: true; layout: PageLayout } | { ok: false; message: string };

export interface LayoutCheck {
  ok: boolean;
  /** The normalised layout (present when ok). */
  layout?: PageLayout;
  /** The first problem, for a banner. */
  message?: string;
  /** Problems by path, e.g. 'sections.0.blocks.2.data.link'. */
  errors: Record<string, string>;
  /** Things the owner should know that do not stop a save (chart dataset truncated, rows missing data). */
  warnings: Record<string, string>;
}

const ok = (layout: PageLayout): OpResult => ({ ok: true, layout });
const refuse = (message: string): OpResult => ({ ok: false, message });

// ------------------------------------------------------------------------------------------------
// Building blocks and sections
// ------------------------------------------------------------------------------------------------

let counter = 0;
/** A fresh id; uses crypto.randomUUID where present (browsers and Node 20 both have it). */
export function newLayoutId(prefix = 'b'): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  const random = c?.randomUUID ? c.randomUUID().replace(/-/g, '').slice(0, 16) : `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return `${prefix}${random}`;
}

export interface IdSource {
  newId?: (prefix: string) => string;
}

export function emptyLayout(): PageLayout {
  return { format: LAYOUT_FORMAT, sections: [] };
}

export function countBlocks(layout: PageLayout): number {
  return layout.sections.reduce((n, s) => n + s.blocks.length, 0);
}

/** How many gallery blocks (any gallery design) a layout holds. */
export function countGalleries(layout: PageLayout): number {
  return layout.sections.reduce((n, s) => n + s.blocks.filter((b) => b.type === BlockType.GALLERY).length, 0);
}

/** The first free row under every block of a section at a breakpoint. */
export function nextRow(section: Section, bp: Breakpoint): number {
  return section.blocks.reduce((m, b) => Math.max(m, b[bp].y + b[bp].h), 0);
}

/** Default data of a block kind (what a new block starts with). */
export function defaultBlockData(type: number, variant: number | null = null): Record<string, unknown> {
  const sample: Record<number, Record<string, unknown>> = {
    [BlockType.HTML]: { html: '<p>Write here.</p>' },
    [BlockType.MARKDOWN]: { markdown: 'Write **here**.' },
    [BlockType.IMAGE]: { assetUrl: '', altText: '', originalSize: '', title: '', body: '', link: '', linkLabel: '' },
    [BlockType.GALLERY]: { title: '', images: [], lightbox: false, autoplay: false },
    [BlockType.BUTTON]: { label: 'Learn more', link: '/', style: 'primary', size: 'medium', align: 'left', newWindow: false },
    [BlockType.QUOTE]: { text: '', source: '' },
    [BlockType.CODE]: { code: '', raw: false, language: '' },
    [BlockType.EMBED]: { url: '', title: 'Embedded content' },
    [BlockType.VIDEO]: { url: '', title: 'Video', caption: '' },
    [BlockType.AUDIO]: { url: '', title: 'Audio', artist: '' },
    [BlockType.ALBUM]: { title: 'Album', artist: '', tracks: [] },
    [BlockType.MAP]: { title: '', address: '', lat: null, lng: null, zoom: 14 },
    [BlockType.FORM]: { formId: '' },
    [BlockType.NEWSLETTER]: { title: 'Subscribe', description: '', buttonLabel: 'Subscribe', formId: '' },
    [BlockType.PRODUCT]: { productId: '' },
    [BlockType.SUMMARY_V2]: { collectionId: '', title: '', limit: 6, showExcerpt: true },
    [BlockType.ACCORDION]: { items: [{ title: 'Question', body: '<p>Answer</p>' }] },
    [BlockType.SOCIAL_LINKS]: { links: [] },
    [BlockType.SEARCH]: { placeholder: 'Search' },
    [BlockType.CHART]: { title: 'Chart', columns: ['Value'], rows: [{ label: 'A', values: [1] }], showLegend: true },
    [BlockType.DONATION]: { title: 'Support our work', text: '', amounts: [1000, 2500, 5000], allowCustom: true },
    [BlockType.PRICING_PLAN]: {
      plans: [
        {
          name: 'Basic',
          price: 1000,
          currency: 'USD',
          period: 'month',
          description: '',
          features: [],
          buttonLabel: 'Choose',
          buttonLink: '/',
          featured: false,
        },
      ],
    },
  };
  void variant;
  return structuredCloneJson(sample[type] ?? {});
}

/** A new block (not yet placed in a section: y is 0). Codes of variants are accepted and split into type + variant. */
export function createBlock(
  code: number,
  init: { data?: Record<string, unknown>; variant?: number | null; w?: number; h?: number } & IdSource = {},
): Block {
  const base = BLOCK_VARIANT_BASE_TYPE[code as BlockType];
  const type = base ?? code;
  const k = KIND_BY_TYPE.get(type);
  const variant = base !== undefined ? code : (init.variant ?? k?.variants[0] ?? null);
  const w = clampInt(init.w ?? GRID_COLUMNS, 1, GRID_COLUMNS);
  const h = clampInt(init.h ?? k?.rows ?? DEFAULT_BLOCK_ROWS, 1, MAX_ROW_SPAN);
  return {
    id: (init.newId ?? newLayoutId)('b'),
    type,
    variant,
    desktop: { x: 0, y: 0, w, h },
    mobile: { x: 0, y: 0, w: GRID_COLUMNS, h },
    data: { ...defaultBlockData(type, variant), ...(init.data ?? {}) },
  };
}

export function createSection(init: { theme?: string; background?: string | null } & IdSource = {}): Section {
  return { id: (init.newId ?? newLayoutId)('s'), theme: init.theme ?? 'white', background: init.background ?? null, blocks: [] };
}

// ------------------------------------------------------------------------------------------------
// Operations
// ------------------------------------------------------------------------------------------------

function findBlock(layout: PageLayout, blockId: string): { s: number; b: number } | null {
  for (let s = 0; s < layout.sections.length; s++) {
    const b = layout.sections[s].blocks.findIndex((x) => x.id === blockId);
    if (b >= 0) return { s, b };
  }
  return null;
}

function withSections(layout: PageLayout, sections: Section[]): PageLayout {
  return { ...layout, sections };
}

function withBlocks(layout: PageLayout, s: number, blocks: Block[]): PageLayout {
  const sections = layout.sections.slice();
  sections[s] = { ...sections[s], blocks };
  return withSections(layout, sections);
}

/** Adds a section at `index` (default: the end). */
export function addSection(
  layout: PageLayout,
  index = layout.sections.length,
  init: { theme?: string; background?: string | null } & IdSource = {},
): OpResult {
  if (layout.sections.length >= MAX_SECTIONS_PER_LAYOUT) return refuse(em.sectionLimit(MAX_SECTIONS_PER_LAYOUT));
  const sections = layout.sections.slice();
  sections.splice(clampInt(index, 0, sections.length), 0, createSection(init));
  return ok(withSections(layout, sections));
}

export function deleteSection(layout: PageLayout, sectionId: string): OpResult {
  const i = layout.sections.findIndex((s) => s.id === sectionId);
  if (i < 0) return refuse(em.SECTION_NOT_FOUND);
  return ok(
    withSections(
      layout,
      layout.sections.filter((_, n) => n !== i),
    ),
  );
}

/** Moves a section to position `toIndex` (clamped). */
export function moveSection(layout: PageLayout, sectionId: string, toIndex: number): OpResult {
  const i = layout.sections.findIndex((s) => s.id === sectionId);
  if (i < 0) return refuse(em.SECTION_NOT_FOUND);
  const sections = layout.sections.slice();
  const [s] = sections.splice(i, 1);
  sections.splice(clampInt(toIndex, 0, sections.length), 0, s);
  return ok(withSections(layout, sections));
}

/** A copy of a section (new ids for it and its blocks) right after it; refused past the block limit. */
export function duplicateSection(layout: PageLayout, sectionId: string, ids: IdSource = {}): OpResult {
  const i = layout.sections.findIndex((s) => s.id === sectionId);
  if (i < 0) return refuse(em.SECTION_NOT_FOUND);
  if (layout.sections.length >= MAX_SECTIONS_PER_LAYOUT) return refuse(em.sectionLimit(MAX_SECTIONS_PER_LAYOUT));
  const src = layout.sections[i];
  if (countBlocks(layout) + src.blocks.length > MAX_BLOCKS_PER_LAYOUT) return refuse(em.blockLimit(MAX_BLOCKS_PER_LAYOUT));
  const srcGalleries = src.blocks.filter((b) => b.type === BlockType.GALLERY).length;
  if (srcGalleries > 0 && countGalleries(layout) + srcGalleries > MAX_PHOTO_GALLERY_SERVICE_GALLERIES)
    return refuse(em.galleryLimit(MAX_PHOTO_GALLERY_SERVICE_GALLERIES));
  const newId = ids.newId ?? newLayoutId;
  const copy: Section = { ...structuredCloneJson(src), id: newId('s') };
  copy.blocks = copy.blocks.map((b) => ({ ...b, id: newId('b') }));
  const sections = layout.sections.slice();
  sections.splice(i + 1, 0, copy);
  return ok(withSections(layout, sections));
}

/** Changes a section's colour theme and background colour. */
export function styleSection(layout: PageLayout, sectionId: string, style: { theme?: string; background?: string | null }): OpResult {
  const i = layout.sections.findIndex((s) => s.id === sectionId);
  if (i < 0) return refuse(em.SECTION_NOT_FOUND);
  const sections = layout.sections.slice();
  sections[i] = {
    ...sections[i],
    ...(style.theme !== undefined ? { theme: style.theme } : {}),
    ...(style.background !== undefined ? { background: style.background } : {}),
  };
  return ok(withSections(layout, sections));
}

/**
 * Adds a block to a section at `index` in reading order (default: the end), placed on a new row at
 * the bottom of the section on both breakpoints. The 61st block is refused with the limit's message.
 */
export function addBlock(layout: PageLayout, sectionId: string, block: Block, index?: number): OpResult {
  if (countBlocks(layout) >= MAX_BLOCKS_PER_LAYOUT) return refuse(em.blockLimit(MAX_BLOCKS_PER_LAYOUT));
  if (block.type === BlockType.GALLERY && countGalleries(layout) >= MAX_PHOTO_GALLERY_SERVICE_GALLERIES)
    return refuse(em.galleryLimit(MAX_PHOTO_GALLERY_SERVICE_GALLERIES));
  const s = layout.sections.findIndex((x) => x.id === sectionId);
  if (s < 0) return refuse(em.SECTION_NOT_FOUND);
  if (findBlock(layout, block.id)) return refuse(pm.tagExists('block'));
  const section = layout.sections[s];
  const placed: Block = {
    ...block,
    desktop: { ...block.desktop, y: Math.min(MAX_ROW, nextRow(section, 'desktop')) },
    mobile: { ...block.mobile, y: Math.min(MAX_ROW, nextRow(section, 'mobile')) },
  };
  const blocks = section.blocks.slice();
  blocks.splice(clampInt(index ?? blocks.length, 0, blocks.length), 0, placed);
  return ok(withBlocks(layout, s, blocks));
}

export function deleteBlock(layout: PageLayout, blockId: string): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  return ok(
    withBlocks(
      layout,
      at.s,
      layout.sections[at.s].blocks.filter((_, n) => n !== at.b),
    ),
  );
}

/** A copy of a block (new id) right after it in reading order, on a new row below it. */
export function duplicateBlock(layout: PageLayout, blockId: string, ids: IdSource = {}): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  if (countBlocks(layout) >= MAX_BLOCKS_PER_LAYOUT) return refuse(em.blockLimit(MAX_BLOCKS_PER_LAYOUT));
  const section = layout.sections[at.s];
  const src = section.blocks[at.b];
  if (src.type === BlockType.GALLERY && countGalleries(layout) >= MAX_PHOTO_GALLERY_SERVICE_GALLERIES)
    return refuse(em.galleryLimit(MAX_PHOTO_GALLERY_SERVICE_GALLERIES));
  const copy: Block = {
    ...structuredCloneJson(src),
    id: (ids.newId ?? newLayoutId)('b'),
    desktop: { ...src.desktop, y: Math.min(MAX_ROW, nextRow(section, 'desktop')) },
    mobile: { ...src.mobile, y: Math.min(MAX_ROW, nextRow(section, 'mobile')) },
  };
  const blocks = section.blocks.slice();
  blocks.splice(at.b + 1, 0, copy);
  return ok(withBlocks(layout, at.s, blocks));
}

/**
 * Moves a block to `toIndex` in the reading order of section `toSectionId` (the same or another).
 * Within a section the blocks between the old and new position shift, and the grid rows follow the
 * new order (each moved-over block takes the rows of the one before it), on both breakpoints. Into
 * another section the block goes on a new row at the bottom.
 */
export function moveBlock(layout: PageLayout, blockId: string, toSectionId: string, toIndex: number): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  const to = layout.sections.findIndex((s) => s.id === toSectionId);
  if (to < 0) return refuse(em.SECTION_NOT_FOUND);
  if (to === at.s) {
    const blocks = layout.sections[at.s].blocks;
    const target = clampInt(toIndex, 0, blocks.length - 1);
    if (target === at.b) return ok(layout);
    return ok(withBlocks(layout, at.s, reorderKeepingSlots(blocks, at.b, target)));
  }
  const block = layout.sections[at.s].blocks[at.b];
  const removed = withBlocks(
    layout,
    at.s,
    layout.sections[at.s].blocks.filter((_, n) => n !== at.b),
  );
  const dest = removed.sections[to];
  const placed: Block = {
    ...block,
    desktop: { ...block.desktop, y: nextRow(dest, 'desktop') },
    mobile: { ...block.mobile, y: nextRow(dest, 'mobile') },
  };
  const blocks = dest.blocks.slice();
  blocks.splice(clampInt(toIndex, 0, blocks.length), 0, placed);
  return ok(withBlocks(removed, to, blocks));
}

/**
 * Reorders blocks[from] to position `to`; the grid slots (x, y of each placement) stay where they
 * were in order, so the visual order follows the reading order. Sizes (w, h) travel with the block;
 * x is clamped so the block still fits in 12 columns.
 */
function reorderKeepingSlots(blocks: Block[], from: number, to: number): Block[] {
  const slots = blocks.map((b) => ({ desktop: { x: b.desktop.x, y: b.desktop.y }, mobile: { x: b.mobile.x, y: b.mobile.y } }));
  const order = blocks.slice();
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  const placed = order.map((b, i) => ({
    ...b,
    desktop: { ...b.desktop, x: Math.min(slots[i].desktop.x, GRID_COLUMNS - b.desktop.w), y: slots[i].desktop.y },
    mobile: { ...b.mobile, x: Math.min(slots[i].mobile.x, GRID_COLUMNS - b.mobile.w), y: slots[i].mobile.y },
  }));
  return settle(settle(placed, Math.min(from, to), 'desktop'), Math.min(from, to), 'mobile');
}

const overlaps = (a: Placement, b: Placement) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * From index `start` on, pushes each block down below any earlier block (in reading order) it would
 * overlap at a breakpoint, so blocks of different heights never land on each other after a move.
 */
function settle(blocks: Block[], start: number, bp: Breakpoint): Block[] {
  const out = blocks.slice();
  for (let i = Math.max(0, start); i < out.length; i++) {
    let p = out[i][bp];
    for (let guard = 0; guard < out.length; guard++) {
      const hit = out.slice(0, i).find((o) => overlaps(o[bp], p));
      if (!hit) break;
      p = { ...p, y: Math.min(MAX_ROW, hit[bp].y + hit[bp].h) };
    }
    if (p !== out[i][bp]) out[i] = { ...out[i], [bp]: p };
  }
  return out;
}

/** Keyboard move: one step earlier in reading order; at the top of a section, to the end of the section above. */
export function moveBlockUp(layout: PageLayout, blockId: string): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  if (at.b > 0) return moveBlock(layout, blockId, layout.sections[at.s].id, at.b - 1);
  if (at.s > 0) return moveBlock(layout, blockId, layout.sections[at.s - 1].id, layout.sections[at.s - 1].blocks.length);
  return ok(layout);
}

/** Keyboard move: one step later in reading order; at the bottom of a section, to the top of the section below. */
export function moveBlockDown(layout: PageLayout, blockId: string): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  const n = layout.sections[at.s].blocks.length;
  if (at.b < n - 1) return moveBlock(layout, blockId, layout.sections[at.s].id, at.b + 1);
  if (at.s < layout.sections.length - 1) {
    const next = moveBlock(layout, blockId, layout.sections[at.s + 1].id, 0);
    if (!next.ok) return next;
    // At the top of the next section: take the first row, pushing that section's blocks down.
    const s = next.layout.sections[at.s + 1];
    const moved = s.blocks[0];
    const shifted = s.blocks.map((b, i) =>
      i === 0
        ? { ...b, desktop: { ...b.desktop, y: 0 }, mobile: { ...b.mobile, y: 0 } }
        : {
            ...b,
            desktop: { ...b.desktop, y: Math.min(MAX_ROW, b.desktop.y + moved.desktop.h) },
            mobile: { ...b.mobile, y: Math.min(MAX_ROW, b.mobile.y + moved.mobile.h) },
          },
    );
    return ok(withBlocks(next.layout, at.s + 1, shifted));
  }
  return ok(layout);
}

/** Resizes (and optionally re-positions) a block at one breakpoint, clamped to the grid. */
export function resizeBlock(layout: PageLayout, blockId: string, bp: Breakpoint, size: Partial<Placement>): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  const b = layout.sections[at.s].blocks[at.b];
  const cur = b[bp];
  const w = clampInt(size.w ?? cur.w, 1, GRID_COLUMNS);
  const x = clampInt(size.x ?? cur.x, 0, GRID_COLUMNS - w);
  const h = clampInt(size.h ?? cur.h, 1, MAX_ROW_SPAN);
  const y = clampInt(size.y ?? cur.y, 0, MAX_ROW);
  const blocks = layout.sections[at.s].blocks.slice();
  blocks[at.b] = { ...b, [bp]: { x, y, w, h } };
  return ok(withBlocks(layout, at.s, blocks));
}

/** Replaces a block's data (not yet checked: `validateLayout` checks it on save). */
export function updateBlockData(layout: PageLayout, blockId: string, data: Record<string, unknown>, variant?: number | null): OpResult {
  const at = findBlock(layout, blockId);
  if (!at) return refuse(em.BLOCK_NOT_FOUND);
  const blocks = layout.sections[at.s].blocks.slice();
  blocks[at.b] = { ...blocks[at.b], data, ...(variant !== undefined ? { variant } : {}) };
  return ok(withBlocks(layout, at.s, blocks));
}

// ------------------------------------------------------------------------------------------------
// Validation and normalisation
// ------------------------------------------------------------------------------------------------

type Errs = { errors: Record<string, string>; warnings: Record<string, string> };
type Check = (v: unknown, path: string, e: Errs) => unknown;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const HEX = /^#[0-9a-f]{6}$/;
const THEME_ID = /^[a-z0-9-]{1,40}$/;
/** A page path: '/', '/about', '/shop/p/shirt?x=1#top'. */
const PAGE_PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;

/** The example hosts of 'Links must be formatted as {host} or {host}'. */
export const LINK_EXAMPLES = Object.freeze(['https://www.example.com', 'www.example.com'] as const);

export interface LinkCheck {
  ok: boolean;
  /** The link as stored: host-like text gets https://. */
  value: string;
  message?: string;
}

/**
 * A link an owner typed: '' (none), a page path ('/about'), '#anchor', an http(s) URL, a bare host
 * ('www.example.com' -> 'https://www.example.com'), mailto: with a valid email, or tel:.
 */
export function checkLink(input: string): LinkCheck {
  const v = input.trim();
  if (v === '') return { ok: true, value: '' };
  if (v.startsWith('/'))
    return PAGE_PATH.test(v) && !v.startsWith('//') ? { ok: true, value: v } : { ok: false, value: v, message: pm.notValidPageUrl(v) };
  if (/^#[A-Za-z0-9\-_:.]*$/.test(v)) return { ok: true, value: v };
  if (/^mailto:/i.test(v)) {
    const email = v.slice(7).split('?')[0];
    return isValidEmail(decodeURIComponentSafe(email)) ? { ok: true, value: v } : { ok: false, value: v, message: pm.ENTER_VALID_EMAIL };
  }
  if (/^tel:\+?[0-9 ()\-.]{3,30}$/i.test(v)) return { ok: true, value: v };
  const web = webLink(v);
  if (web !== null) return { ok: true, value: web };
  return { ok: false, value: v, message: pm.linksFormattedAs(LINK_EXAMPLES[0], LINK_EXAMPLES[1]) };
}

/**
 * A web link as stored, or null: an http(s) URL, or a bare one ('example.com', 'shop.example.com/a?b#c',
 * 'bücher.de', 'example.com:8080/x') that gets https://. Its host must be a domain name (IDNs too, checked in
 * the URL parser's punycode) of two or more labels with a top-level label that is not all digits; with a
 * scheme, localhost and an IPv4 address are links too. No whitespace, control characters, backslashes or user
 * names ('a@example.com' is a mailto: link). Parsed by the WHATWG URL parser and by hand: no regex that
 * could backtrack.
 */
export function webLink(v: string): string | null {
  if (v === '' || v.length > 2000 || /[\s\\]/.test(v)) return null;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) < 32 || v.charCodeAt(i) === 127) return null;
  const schemed = /^https?:\/\//i.test(v);
  if (!schemed && v.startsWith('/')) return null;
  let u: URL;
  try {
    u = new URL(schemed ? v : `https://${v}`);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username !== '' || u.password !== '') return null;
  const host = u.hostname;
  if (isDomainName(host) || (schemed && (host === 'localhost' || isIPv4(host)))) return schemed ? v : `https://${v}`;
  return null;
}

/** A host (lower case, IDNs in punycode, as the URL parser gives it) of 2 or more labels of a-z, 0-9 and inner hyphens. */
function isDomainName(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  const labels = host.split('.');
  if (labels.length < 2) return false;
  for (const l of labels) {
    if (l.length === 0 || l.length > 63 || l.charCodeAt(0) === 45 || l.charCodeAt(l.length - 1) === 45) return false;
    for (let i = 0; i < l.length; i++) {
      const c = l.charCodeAt(i);
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return false;
    }
  }
  return /[a-z]/.test(labels[labels.length - 1]!);
}

/** Four dot-separated numbers 0-255 (the URL parser's form of an IPv4 host). */
function isIPv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => p.length >= 1 && p.length <= 3 && /^[0-9]+$/.test(p) && Number(p) <= 255);
}

/** A media source: a file of this site ('/uploads/...', '/demo-media/...', '/theme/...') or an http(s) URL. */
export function checkMediaUrl(input: string): LinkCheck {
  const v = input.trim();
  if (v === '') return { ok: true, value: '' };
  if (/^\/(uploads|demo-media|theme)\/[A-Za-z0-9\-._~%/]+$/.test(v) && !v.includes('..')) return { ok: true, value: v };
  if (v.startsWith('/')) return { ok: false, value: v, message: pm.notValidPageUrl(v) };
  const link = checkLink(v);
  if (!link.ok || !/^https?:\/\//.test(link.value))
    return { ok: false, value: v, message: link.message ?? pm.linksFormattedAs(LINK_EXAMPLES[0], LINK_EXAMPLES[1]) };
  return link;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const str =
  (max: number, def = ''): Check =>
  (v, path, e) => {
    if (v === undefined || v === null) return def;
    if (typeof v !== 'string') {
      e.errors[path] = em.mustBeText(path.split('.').pop()!);
      return def;
    }
    if (v.length > max) e.errors[path] = em.tooLong(max);
    return v;
  };

const requiredStr =
  (max: number): Check =>
  (v, path, e) => {
    const s = str(max)(v, path, e) as string;
    if (s.trim() === '' && !e.errors[path]) e.errors[path] = em.REQUIRED;
    return s;
  };

const bool =
  (def = false): Check =>
  (v, path, e) => {
    if (v === undefined || v === null) return def;
    if (typeof v !== 'boolean') {
      e.errors[path] = pm.notExpectedOption(String(v));
      return def;
    }
    return v;
  };

const int =
  (min: number, max: number, def: number | null): Check =>
  (v, path, e) => {
    if (v === undefined || v === null || v === '') return def;
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      e.errors[path] = em.numberBetween(min, max);
      return def;
    }
    return n;
  };

const num =
  (min: number, max: number): Check =>
  (v, path, e) => {
    if (v === undefined || v === null || v === '') return null;
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
      e.errors[path] = em.numberBetween(min, max);
      return null;
    }
    return n;
  };

const oneOf =
  (values: readonly string[], def: string): Check =>
  (v, path, e) => {
    if (v === undefined || v === null || v === '') return def;
    if (typeof v !== 'string' || !values.includes(v)) {
      e.errors[path] = pm.notExpectedOption(String(v));
      return def;
    }
    return v;
  };

const link: Check = (v, path, e) => {
  const s = str(2000)(v, path, e) as string;
  const r = checkLink(s);
  if (!r.ok && !e.errors[path]) e.errors[path] = r.message!;
  return r.value;
};

const media =
  (required: boolean): Check =>
  (v, path, e) => {
    const s = str(2000)(v, path, e) as string;
    const r = checkMediaUrl(s);
    if (!r.ok && !e.errors[path]) e.errors[path] = r.message!;
    else if (required && r.value === '' && !e.errors[path]) e.errors[path] = em.REQUIRED;
    return r.value;
  };

const idRef: Check = (v, path, e) => {
  const s = str(64)(v, path, e) as string;
  if (s !== '' && !ID.test(s) && !e.errors[path]) e.errors[path] = pm.notExpectedOption(s);
  return s;
};

/** The mailing list a newsletter block signs visitors up to (its newsletter form): required. */
const listRef: Check = (v, path, e) => {
  const s = idRef(v, path, e) as string;
  if (s === '' && !e.errors[path]) e.errors[path] = pm.LIST_MUST_BE_SELECTED;
  return s;
};

const originalSize: Check = (v, path, e) => {
  const s = str(20)(v, path, e) as string;
  if (s !== '' && !/^\d{1,5}x\d{1,5}$/.test(s) && !e.errors[path]) e.errors[path] = pm.notExpectedOption(s);
  return s;
};

const obj =
  (fields: Record<string, Check>): Check =>
  (v, path, e) => {
    const src = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    if (v !== undefined && v !== null && src !== v) e.errors[path] = em.mustBeObject(path.split('.').pop()!);
    const out: Record<string, unknown> = {};
    for (const [k, check] of Object.entries(fields)) out[k] = check(src[k], `${path}.${k}`, e);
    return out;
  };

const list =
  (item: Check, max: number, min = 0, tooLong: (max: number) => string = em.listTooLong): Check =>
  (v, path, e) => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      e.errors[path] = em.mustBeList(path.split('.').pop()!);
      return [];
    }
    if (v.length > max) e.errors[path] = tooLong(max);
    else if (v.length < min) e.errors[path] = em.listTooShort(min);
    return v.slice(0, max).map((x, i) => item(x, `${path}.${i}`, e));
  };

const galleryImage = obj({ assetUrl: media(true), altText: str(EXCERPT_MAX_CHARS), originalSize, title: str(200) });

/** Per-type data checks. Placeholder blocks keep their data as plain JSON. */
const DATA_CHECKS: Record<number, Check> = {
  [BlockType.HTML]: obj({ html: str(MAX_TEXT_CHARS) }),
  [BlockType.MARKDOWN]: obj({ markdown: str(MAX_TEXT_CHARS) }),
  [BlockType.IMAGE]: obj({
    assetUrl: media(false),
    altText: str(EXCERPT_MAX_CHARS),
    originalSize,
    title: str(200),
    body: str(5000),
    link,
    linkLabel: str(100),
  }),
  [BlockType.GALLERY]: obj({
    title: str(200),
    images: list(galleryImage, PHOTO_GALLERY_SERVICE_GALLERY_SIZE, 0, em.galleryImageLimit),
    lightbox: bool(),
    autoplay: bool(),
  }),
  [BlockType.BUTTON]: obj({
    label: requiredStr(100),
    link,
    style: oneOf(['primary', 'secondary', 'tertiary'], 'primary'),
    size: oneOf(['small', 'medium', 'large'], 'medium'),
    align: oneOf(['left', 'center', 'right'], 'left'),
    newWindow: bool(),
  }),
  [BlockType.SPACER]: obj({}),
  [BlockType.HORIZONTAL_RULE]: obj({}),
  [BlockType.QUOTE]: obj({ text: str(5000), source: str(200) }),
  [BlockType.CODE]: obj({ code: str(MAX_TEXT_CHARS), raw: bool(), language: str(40) }),
  [BlockType.EMBED]: obj({ url: link, title: str(200, 'Embedded content') }),
  [BlockType.VIDEO]: obj({ url: media(false), title: str(200, 'Video'), caption: str(500) }),
  [BlockType.AUDIO]: obj({ url: media(false), title: str(200, 'Audio'), artist: str(200) }),
  // An audio playlist: at most MAX_ALBUM_TRACKS (60) tracks, each a title and an audio file.
  [BlockType.ALBUM]: obj({
    title: str(200, 'Album'),
    artist: str(200),
    tracks: list(obj({ title: requiredStr(200), url: media(true) }), MAX_ALBUM_TRACKS, 0, lm.albumTrackLimit),
  }),
  [BlockType.MAP]: obj({ title: str(200), address: str(500), lat: num(-90, 90), lng: num(-180, 180), zoom: int(1, 20, 14) }),
  [BlockType.FORM]: obj({ formId: idRef }),
  [BlockType.NEWSLETTER]: obj({ title: str(200), description: str(2000), buttonLabel: str(100, 'Subscribe'), formId: listRef }),
  [BlockType.PRODUCT]: obj({ productId: idRef }),
  [BlockType.SUMMARY_V2]: obj({ collectionId: idRef, title: str(200), limit: int(1, 30, 6), showExcerpt: bool(true) }),
  [BlockType.ACCORDION]: obj({ items: list(obj({ title: requiredStr(200), body: str(MAX_TEXT_CHARS) }), MAX_LIST_ITEMS) }),
  [BlockType.SOCIAL_LINKS]: obj({ links: list(obj({ service: requiredStr(40), url: link }), 30) }),
  [BlockType.SEARCH]: obj({ placeholder: str(100, 'Search') }),
  [BlockType.CHART]: chartCheck,
  [BlockType.DONATION]: obj({
    title: str(200),
    text: str(2000),
    amounts: (v, path, e) => {
      if (v === undefined || v === null) e.errors[path] = em.listTooShort(1);
      return list(int(1, MAX_DONATION_AMOUNT_CENTS, null), MAX_DONATION_AMOUNTS, 1)(v, path, e);
    },
    allowCustom: bool(true),
  }),
  [BlockType.PRICING_PLAN]: obj({
    plans: list(
      obj({
        name: requiredStr(100),
        price: int(0, 1_000_000_000, 0),
        currency: (v, path, e) => {
          const s = str(3, 'USD')(v, path, e) as string;
          if (!/^[A-Z]{3}$/.test(s) && !e.errors[path]) e.errors[path] = pm.notExpectedOption(s);
          return s;
        },
        period: oneOf(['once', 'week', 'month', 'year'], 'month'),
        description: str(1000),
        features: list(str(200), 30),
        buttonLabel: str(100),
        buttonLink: link,
        featured: bool(),
      }),
      MAX_PRICING_PLANS,
      1,
    ),
  }),
};

function chartCheck(v: unknown, path: string, e: Errs): unknown {
  const src = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const title = str(200)(src.title, `${path}.title`, e);
  const showLegend = bool(true)(src.showLegend, `${path}.showLegend`, e);
  const columns = list(str(100), 1000)(src.columns, `${path}.columns`, e) as string[];
  const rows = list((r, p, ee) => {
    const o = r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : {};
    const values = Array.isArray(o.values) ? o.values : [];
    return {
      label: str(100)(o.label, `${p}.label`, ee),
      values: values.slice(0, 1000).map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : null)),
    };
  }, 10_000)(src.rows, `${path}.rows`, e) as ChartRow[];
  const data = { title, showLegend, columns, rows };
  const ds = chartDataset(data);
  if (ds.error) e.errors[ds.error.field === 'columns' ? `${path}.columns` : `${path}.rows`] = ds.error.message;
  for (const [i, w] of ds.warnings.entries()) e.warnings[`${path}.${i === 0 ? 'dataset' : `dataset${i}`}`] = w;
  return data;
}

// ------------------------------------------------------------------------------------------------
// Chart datasets
// ------------------------------------------------------------------------------------------------

export interface ChartRow {
  label: string;
  values: Array<number | null>;
}

export interface ChartDataset {
  columns: string[];
  rows: ChartRow[];
  /** Set when the dataset cannot be drawn: no column or no row. */
  error?: { field: 'columns' | 'rows'; message: string };
  /** 'One or more rows was missing data', and the truncation notice. */
  warnings: string[];
}

/**
 * The drawable part of a chart's data: at least one column and one row (else an error with its
 * message), rows missing values flagged, and anything past CHART_MAX_ROWS / CHART_MAX_COLUMNS cut
 * with the truncation notice.
 */
export function chartDataset(data: { columns?: unknown; rows?: unknown }): ChartDataset {
  const columns = Array.isArray(data.columns) ? data.columns.map(String) : [];
  const rows: ChartRow[] = Array.isArray(data.rows)
    ? data.rows.map((r) => {
        const o = (r ?? {}) as Record<string, unknown>;
        const vals = Array.isArray(o.values) ? o.values : [];
        return { label: String(o.label ?? ''), values: vals.map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : null)) };
      })
    : [];
  const warnings: string[] = [];
  if (columns.length === 0) return { columns, rows, warnings, error: { field: 'columns', message: pm.DATASET_NO_COLUMN } };
  if (rows.length === 0) return { columns, rows, warnings, error: { field: 'rows', message: pm.DATASET_NO_ROW } };
  if (rows.some((r) => r.values.length < columns.length || r.values.slice(0, columns.length).some((x) => x === null)))
    warnings.push(pm.DATASET_MISSING_DATA);
  let cols = columns;
  let rs = rows;
  if (columns.length > CHART_MAX_COLUMNS || rows.length > CHART_MAX_ROWS) {
    warnings.push(pm.datasetTruncated(CHART_MAX_ROWS, CHART_MAX_COLUMNS));
    cols = columns.slice(0, CHART_MAX_COLUMNS);
    rs = rows.slice(0, CHART_MAX_ROWS);
  }
  rs = rs.map((r) => ({ label: r.label, values: cols.map((_, i) => r.values[i] ?? null) }));
  return { columns: cols, rows: rs, warnings };
}

function placement(v: unknown, path: string, e: Errs): Placement {
  const o = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const w = int(1, GRID_COLUMNS, GRID_COLUMNS)(o.w, `${path}.w`, e) as number;
  const x = int(0, GRID_COLUMNS - 1, 0)(o.x, `${path}.x`, e) as number;
  const y = int(0, MAX_ROW, 0)(o.y, `${path}.y`, e) as number;
  const h = int(1, MAX_ROW_SPAN, DEFAULT_BLOCK_ROWS)(o.h, `${path}.h`, e) as number;
  if (x + w > GRID_COLUMNS && !e.errors[`${path}.w`]) e.errors[`${path}.w`] = em.outsideGrid(GRID_COLUMNS);
  return { x, y, w, h };
}

function plainJson(v: unknown, depth = 0): unknown {
  if (depth > 20) return null;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map((x) => plainJson(x, depth + 1));
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = plainJson(x, depth + 1);
    return out;
  }
  return null;
}

/**
 * Checks and normalises a layout from anywhere (a request body, stored text). Unknown keys are
 * dropped and defaults filled in, so the result serialises canonically. Refuses more than 60 blocks.
 */
export function validateLayout(input: unknown): LayoutCheck {
  const e: Errs = { errors: {}, warnings: {} };
  const src = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  if (!src) return { ok: false, message: em.NOT_A_LAYOUT, errors: { _: em.NOT_A_LAYOUT }, warnings: {} };
  if (src.format !== undefined && src.format !== LAYOUT_FORMAT) e.errors.format = pm.notExpectedOption(String(src.format));
  const rawSections = Array.isArray(src.sections) ? src.sections : [];
  if (src.sections !== undefined && !Array.isArray(src.sections)) e.errors.sections = em.mustBeList('sections');
  if (rawSections.length > MAX_SECTIONS_PER_LAYOUT) e.errors.sections = em.sectionLimit(MAX_SECTIONS_PER_LAYOUT);
  const total = rawSections.reduce<number>(
    (n, s) => n + (Array.isArray((s as { blocks?: unknown })?.blocks) ? (s as { blocks: unknown[] }).blocks.length : 0),
    0,
  );
  if (total > MAX_BLOCKS_PER_LAYOUT) {
    const message = em.blockLimit(MAX_BLOCKS_PER_LAYOUT);
    return { ok: false, message, errors: { sections: message }, warnings: {} };
  }
  const seen = new Set<string>();
  const uniqueId = (v: unknown, path: string): string => {
    const id = typeof v === 'string' ? v : '';
    if (!ID.test(id)) e.errors[path] = pm.notExpectedOption(id);
    else if (seen.has(id)) e.errors[path] = pm.tagExists(path.includes('blocks') ? 'block' : 'section');
    seen.add(id);
    return id;
  };
  const sections: Section[] = rawSections.slice(0, MAX_SECTIONS_PER_LAYOUT).map((raw, si) => {
    const p = `sections.${si}`;
    const s = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const theme =
      typeof s.theme === 'string' && THEME_ID.test(s.theme)
        ? s.theme
        : s.theme === undefined
          ? 'white'
          : ((e.errors[`${p}.theme`] = pm.notExpectedOption(String(s.theme))), 'white');
    let background: string | null = null;
    if (s.background !== undefined && s.background !== null && s.background !== '') {
      const bg = String(s.background).toLowerCase();
      if (HEX.test(bg)) background = bg;
      else e.errors[`${p}.background`] = pm.notExpectedOption(String(s.background));
    }
    const rawBlocks = Array.isArray(s.blocks) ? s.blocks : [];
    const blocks: Block[] = rawBlocks.map((rb, bi) => {
      const bp = `${p}.blocks.${bi}`;
      const b = rb && typeof rb === 'object' ? (rb as Record<string, unknown>) : {};
      const id = uniqueId(b.id, `${bp}.id`);
      let type = typeof b.type === 'number' ? b.type : Number.NaN;
      let variant: number | null =
        b.variant === undefined || b.variant === null ? null : typeof b.variant === 'number' ? b.variant : Number.NaN;
      // A variant code given as the type is split into the base type and the variant.
      const base = BLOCK_VARIANT_BASE_TYPE[type as BlockType];
      if (base !== undefined) {
        variant = type;
        type = base;
      }
      if (!isEnumValue(BlockType, type)) e.errors[`${bp}.type`] = pm.notExpectedOption(String(b.type));
      const k = KIND_BY_TYPE.get(type);
      if (k && k.variants.length > 0) {
        if (variant === null) variant = k.variants[0];
        else if (!k.variants.includes(variant)) {
          e.errors[`${bp}.variant`] = pm.notExpectedOption(String(b.variant));
          variant = k.variants[0];
        }
      } else if (variant !== null) {
        if (k || BLOCK_VARIANT_BASE_TYPE[variant as BlockType] !== type)
          e.errors[`${bp}.variant`] = pm.notExpectedOption(String(b.variant));
        if (k) variant = null;
      }
      const check = DATA_CHECKS[type];
      const data = (check ? check(b.data ?? {}, `${bp}.data`, e) : plainJson(b.data ?? {})) as Record<string, unknown>;
      return {
        id,
        type,
        variant,
        desktop: placement(b.desktop, `${bp}.desktop`, e),
        mobile: placement(b.mobile, `${bp}.mobile`, e),
        data: data && typeof data === 'object' ? data : {},
      };
    });
    return { id: uniqueId(s.id, `${p}.id`), theme, background, blocks };
  });
  const layout: PageLayout = { format: LAYOUT_FORMAT, sections };
  if (countGalleries(layout) > MAX_PHOTO_GALLERY_SERVICE_GALLERIES)
    e.errors.sections = em.galleryLimit(MAX_PHOTO_GALLERY_SERVICE_GALLERIES);
  const keys = Object.keys(e.errors);
  return keys.length === 0
    ? { ok: true, layout, errors: {}, warnings: e.warnings }
    : { ok: false, message: e.errors[keys[0]], errors: e.errors, warnings: e.warnings };
}

// ------------------------------------------------------------------------------------------------
// Canonical serialisation
// ------------------------------------------------------------------------------------------------

/** JSON with object keys sorted at every depth and no whitespace: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return 'null';
}

/** The stored text of a layout: validated, normalised and canonical. Throws when the layout is not valid. */
export function serializeLayout(layout: PageLayout): string {
  const r = validateLayout(layout);
  if (!r.ok) throw new Error(r.message);
  return canonicalJson(r.layout);
}

/** Reads stored layout text (no checks beyond JSON: stored text was checked when saved). */
export function parseLayout(text: string): PageLayout {
  const v = JSON.parse(text) as PageLayout;
  return v && Array.isArray(v.sections) ? v : emptyLayout();
}

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

function clampInt(n: number, min: number, max: number): number {
  const i = Math.round(Number.isFinite(n) ? n : min);
  return Math.min(max, Math.max(min, i));
}

function structuredCloneJson<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** A page as the editor's list and calls describe it (the server's answer and the admin screens' type). */
export interface PageSummary {
  id: string;
  title: string;
  urlId: string;
  fullUrl: string;
  status: PageStatus;
  statusLabel: string;
  version: number;
  publishAt: string | null;
  publishedAt: string | null;
  updatedAt: string;
  hasUnpublishedChanges: boolean;
}

// ------------------------------------------------------------------------------------------------
// Journal posts (issue 27): a post's body is a layout too
// ------------------------------------------------------------------------------------------------

/**
 * A body of HTML as a layout: one section holding one text block with that HTML (a post written before
 * the editor, opened in it for the first time, or an admin's body written as HTML). Empty HTML gives one
 * empty text block, so a new post opens with a place to type.
 */
export function htmlLayout(html: string, ids: IdSource = {}): PageLayout {
  const withSection = addSection(emptyLayout(), 0, ids);
  if (!withSection.ok) return emptyLayout();
  const block = html.trim() === '' ? createBlock(BlockType.HTML, ids) : createBlock(BlockType.HTML, { ...ids, data: { html } });
  const r = addBlock(withSection.layout, withSection.layout.sections[0]!.id, block);
  return r.ok ? r.layout : withSection.layout;
}

/** The HTML of a layout's text blocks in reading order (a post's body for feeds and excerpts). */
export function layoutTextBlocksHtml(layout: PageLayout): string {
  const out: string[] = [];
  for (const s of layout.sections) {
    const blocks = s.blocks.slice().sort((a, b) => a.desktop.y - b.desktop.y || a.desktop.x - b.desktop.x);
    for (const b of blocks) if (b.type === BlockType.HTML && typeof b.data.html === 'string') out.push(b.data.html);
  }
  return out.join('\n');
}

/**
 * Public rendering of an editor layout: each block becomes a JSON context for its theme partial
 * (`themes/<theme>/blocks/block-{name}.block`), and `page-layout.block` lays the rendered blocks out
 * on the 12-column grid in their sections. Everything an owner typed reaches the page escaped by the
 * templates, or, for rich text and markdown, as HTML cleaned by sanitize-html. Blocks Tessera does not
 * render give nothing on the site (a labelled placeholder only in an owner's draft preview).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { marked } from 'marked';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { blockKind, blockLabel, variantName, type Block, type PageLayout, type Section } from '../../core/layout.js';
import { stylesCss, textColourOn, type SiteStyles } from '../../core/site-styles.js';
import { formatMoney } from '../../core/money.js';
import { pageEditor as em } from '../../core/messages.js';
import { BlockType } from '../../core/enums.js';
import { cleanOwnerHtml } from '../content/index.js';
import { nonceScripts } from '../site-page/index.js';
import { isBlockEnabled } from '../flags/index.js';
import { compile, render as renderTemplate, type Compiled, type WidgetRenderer } from '../../template/index.js';
import type { Theme } from '../site-page/index.js';
import { galleryOptions, imageJson, itemJson, productsFor, publishedItems, type CollectionRow } from '../site-context/index.js';
import { galleryIsland } from '../site-context/index.js';
import { renderIsland } from '../../web/ssr.js';
import { formHtml } from '../forms/index.js';
import { donationBlockForm, donationStripe } from '../donations/index.js';
import { donationSettingsOf } from '../donations/index.js';
import { isEnabled } from '../flags/index.js';
import { Feature } from '../../core/features.js';
import { chartSvg, type ChartKind } from './chart.js';
import { mapPlace, type MapProvider } from './map.js';
import { escapeHtml } from '../../core/html.js';

type Obj = Record<string, unknown>;

export interface RenderEnv {
  app: FastifyInstance;
  req: FastifyRequest;
  theme: Theme;
  styles: SiteStyles;
  websiteId: string;
  currency: string;
  locale: string;
  timeZone: string;
  renderer?: WidgetRenderer;
  maps: MapProvider | null;
  /** The page the layout belongs to (forms record it with submissions). */
  page: { id: string; title: string };
  /** An owner's draft preview: placeholders of unrendered blocks are shown. */
  preview?: boolean;
  /** The editor's canvas: raw code is shown as code (it never runs in /config). */
  canvas?: boolean;
}

/** Rich text an owner wrote, cleaned with the one allow-list (server/content/owner-html.ts). */
export function safeHtml(html: string): string {
  return cleanOwnerHtml(html);
}

/** Markdown to cleaned HTML (raw HTML in the markdown is cleaned the same way as rich text). */
export function markdownHtml(md: string): string {
  return safeHtml(marked.parse(md, { async: false, gfm: true }) as string);
}

const compiled = new Map<string, Compiled>();
function callPartial(name: string): Compiled {
  let c = compiled.get(name);
  if (!c) {
    c = compile(`{@|apply ${name}}`).code;
    compiled.set(name, c);
  }
  return c;
}

function partial(env: RenderEnv, name: string, ctx: Obj): string {
  if (!env.theme.partials[name]) return '';
  try {
    const { output, errors } = renderTemplate(callPartial(name), ctx, {
      partials: env.theme.partials,
      locale: env.locale,
      timeZone: env.timeZone,
      renderer: env.renderer,
    });
    for (const e of errors) env.req.log.warn({ partial: name, line: e.line, column: e.column }, `template error in ${name}: ${e.message}`);
    return output;
  } catch (err) {
    env.req.log.error({ err, partial: name }, 'block partial failed');
    return '';
  }
}

function youTubeId(url: string): string | null {
  const m = /^https?:\/\/(?:www\.|m\.)?(?:youtube\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{6,20})/.exec(url);
  return m ? m[1] : null;
}

export function vimeoId(url: string): string | null {
  const m = /^https?:\/\/(?:www\.)?(?:player\.)?vimeo\.com\/(?:video\/)?(\d{4,12})/.exec(url);
  return m ? m[1] : null;
}

const isMediaFile = (url: string, exts: RegExp) => url.startsWith('/') || exts.test(url.split(/[?#]/)[0]);

function imageOf(d: Obj, sizes: string) {
  const src = String(d.assetUrl ?? '');
  if (!src) return null;
  return imageJson({ assetUrl: src, originalSize: d.originalSize || undefined }, String(d.altText ?? ''), { sizes });
}

/** The JSON context of one block for its partial, or null when it shows nothing. */
async function blockContext(env: RenderEnv, block: Block, sizes: string): Promise<Obj | null> {
  const d = block.data as Obj;
  // Beta blocks follow their feature flag (server/flags).
  if (!isBlockEnabled(await env.app.services.websites.get(), block.type)) return null;
  const base = { id: block.id, type: block.type, variant: variantName(block.variant) ?? '' };
  switch (block.type) {
    case BlockType.HTML:
      return { ...base, html: safeHtml(String(d.html ?? '')) };
    case BlockType.MARKDOWN:
      return { ...base, html: markdownHtml(String(d.markdown ?? '')) };
    case BlockType.IMAGE: {
      const image = imageOf(d, sizes);
      const link = String(d.link ?? '');
      const title = String(d.title ?? '');
      const body = String(d.body ?? '');
      const linkLabel = String(d.linkLabel ?? '');
      if (!image && !title && !body) return null;
      return {
        ...base,
        image,
        title,
        body,
        link,
        linkLabel,
        imageLink: link && image && String(d.altText ?? '').trim() ? link : '',
        hasText: !!(title || body || (link && linkLabel)),
      };
    }
    case BlockType.GALLERY: {
      const design = { slideshow: 'slideshow', carousel: 'slider', grid: 'grid', stack: 'stacked' }[base.variant] ?? 'grid';
      const images = (Array.isArray(d.images) ? d.images : []) as Obj[];
      const items = images
        .map((img, i) => ({
          id: `${block.id}-${i}`,
          title: String(img.title ?? ''),
          excerpt: '',
          image: imageOf(img, '(max-width: 432px) 100vw, 50vw'),
        }))
        .filter((x) => x.image);
      if (items.length === 0) return null;
      const collection = {
        id: block.id,
        title: String(d.title || 'Gallery'),
        gallery: galleryOptions({ design, lightbox: d.lightbox === true, autoplay: d.autoplay === true }),
      };
      return { ...base, html: galleryIsland(collection, items) };
    }
    case BlockType.BUTTON:
      return {
        ...base,
        label: String(d.label ?? ''),
        link: String(d.link || '#'),
        style: String(d.style ?? 'primary'),
        size: String(d.size ?? 'medium'),
        align: String(d.align ?? 'left'),
        newWindow: d.newWindow === true,
      };
    case BlockType.SPACER:
    case BlockType.HORIZONTAL_RULE:
      return base;
    case BlockType.QUOTE:
      return d.text ? { ...base, text: String(d.text), source: String(d.source ?? '') } : null;
    case BlockType.CODE:
      // Raw code is an admin's (editor/service.ts guardRawCode): its scripts carry the page's CSP nonce.
      if (env.canvas && d.code) return { ...base, raw: false, code: String(d.code), language: String(d.language ?? '') };
      return d.code
        ? {
            ...base,
            raw: d.raw === true,
            code: d.raw === true ? nonceScripts(String(d.code), env.req.cspNonce()) : String(d.code),
            language: String(d.language ?? ''),
          }
        : null;
    case BlockType.EMBED:
      return /^https?:\/\//.test(String(d.url ?? ''))
        ? { ...base, url: String(d.url), title: String(d.title || 'Embedded content') }
        : null;
    case BlockType.VIDEO: {
      const url = String(d.url ?? '');
      if (!url) return null;
      const yt = youTubeId(url);
      const vm = vimeoId(url);
      const embedUrl = yt ? `https://www.youtube-nocookie.com/embed/${yt}` : vm ? `https://player.vimeo.com/video/${vm}` : '';
      const isFile = !embedUrl && isMediaFile(url, /\.(mp4|webm|mov|m4v|ogv)$/i);
      if (!embedUrl && !isFile) return null;
      return { ...base, src: url, embedUrl, isFile, title: String(d.title || 'Video'), caption: String(d.caption ?? '') };
    }
    case BlockType.AUDIO: {
      const url = String(d.url ?? '');
      return url ? { ...base, src: url, title: String(d.title || 'Audio'), artist: String(d.artist ?? '') } : null;
    }
    case BlockType.ALBUM: {
      // An audio playlist: one native player that plays the chosen track, and the list of tracks (theme partial).
      const tracks = (Array.isArray(d.tracks) ? (d.tracks as Obj[]) : [])
        .map((t) => ({ title: String(t.title ?? ''), src: String(t.url ?? '') }))
        .filter((t) => t.src !== '')
        .map((t, i) => ({ ...t, number: i + 1 }));
      if (tracks.length === 0) return null;
      const title = String(d.title || 'Album');
      const artist = String(d.artist ?? '');
      return {
        ...base,
        title,
        artist,
        tracks,
        count: tracks.length,
        html: renderIsland('AlbumPlayer', { id: block.id, title, artist, tracks: tracks.map((t) => ({ title: t.title, src: t.src })) }),
      };
    }
    case BlockType.MAP: {
      const place = mapPlace(d);
      if (!place.address && place.lat === null) return null;
      return { ...base, ...place, embedHtml: env.maps?.embed(place) ?? '', directionsUrl: mapSearchUrl(place) };
    }
    default:
      return dataBlockContext(env, block, d, base, sizes);
  }
}

/** The context of a block whose content is read from the site's data: forms, products, summaries, plans, donations. */
async function dataBlockContext(env: RenderEnv, block: Block, d: Obj, base: Obj, sizes: string): Promise<Obj | null> {
  const db = env.app.database.db;
  switch (block.type) {
    case BlockType.FORM:
    case BlockType.NEWSLETTER: {
      let formId = String(d.formId ?? '');
      if (!formId && block.type === BlockType.NEWSLETTER) {
        const [f] = await db
          .select({ id: schema.forms.id })
          .from(schema.forms)
          .where(and(eq(schema.forms.websiteId, env.websiteId), eq(schema.forms.kind, 'newsletter')))
          .limit(1);
        formId = f?.id ?? '';
      }
      const html = formId
        ? await formHtml(env.app, env.req, formId, {
            page: {
              pageTitle: env.page.title,
              pageId: env.page.id,
              contentSource: 'c',
              pagePermissionTypeValue: await env.app.members.permissionType(await env.app.services.websites.get(), env.page.id),
            },
          })
        : '';
      if (!html && block.type === BlockType.FORM) return null;
      return { ...base, formHtml: html, title: String(d.title ?? ''), description: String(d.description ?? '') };
    }
    case BlockType.PRODUCT: {
      const id = String(d.productId ?? '');
      if (!id) return null;
      const [row] = await db
        .select()
        .from(schema.items)
        .where(and(eq(schema.items.id, id), eq(schema.items.websiteId, env.websiteId), eq(schema.items.status, 'published')));
      if (!row) return null;
      const [c] = await db.select().from(schema.collections).where(eq(schema.collections.id, row.collectionId));
      if (!c || c.typeName !== 'products' || !c.enabled) return null;
      const products = await productsFor(db, [row]);
      return { ...base, product: itemJson(c, row, products.get(row.id), { currency: env.currency, commentsEnabled: false, sizes }) };
    }
    case BlockType.SUMMARY_V2: {
      const id = String(d.collectionId ?? '');
      if (!id) return null;
      const [c] = await db
        .select()
        .from(schema.collections)
        .where(and(eq(schema.collections.id, id), eq(schema.collections.websiteId, env.websiteId), eq(schema.collections.enabled, true)));
      if (!c) return null;
      const limit = Math.min(30, Math.max(1, Number(d.limit) || 6));
      const rows = await publishedItems(db, c as CollectionRow, limit, 0, { now: Date.now() });
      const products = await productsFor(db, rows);
      const items = rows.map((r) =>
        itemJson(c as CollectionRow, r, products.get(r.id), {
          currency: env.currency,
          commentsEnabled: false,
          sizes: '(max-width: 432px) 100vw, 33vw',
        }),
      );
      const title = String(d.title ?? '');
      return {
        ...base,
        title,
        items,
        showExcerpt: d.showExcerpt !== false,
        scrollLabel: base.variant === 'carousel' ? title || c.title : '',
      };
    }
    case BlockType.ACCORDION: {
      const items = ((Array.isArray(d.items) ? d.items : []) as Obj[]).map((x) => ({
        title: String(x.title ?? ''),
        body: safeHtml(String(x.body ?? '')),
      }));
      return items.length ? { ...base, items } : null;
    }
    case BlockType.SOCIAL_LINKS: {
      const links = ((Array.isArray(d.links) ? d.links : []) as Obj[])
        .filter((l) => l.url)
        .map((l) => ({ label: String(l.service ?? ''), url: String(l.url) }));
      return links.length ? { ...base, links } : null;
    }
    case BlockType.SEARCH:
      return { ...base, placeholder: String(d.placeholder || 'Search') };
    case BlockType.CHART: {
      const kind = (base.variant || 'bar') as ChartKind;
      const svg = chartSvg(kind, d, `chart-${block.id}`);
      return svg ? { ...base, title: String(d.title ?? ''), svg } : null;
    }
    case BlockType.PRICING_PLAN: {
      const periods: Record<string, string> = { once: '', week: 'per week', month: 'per month', year: 'per year' };
      const plans = ((Array.isArray(d.plans) ? d.plans : []) as Obj[]).map((p) => {
        let priceText = '';
        try {
          priceText = formatMoney(Number(p.price ?? 0), String(p.currency || env.currency));
        } catch {
          priceText = String(p.price ?? '');
        }
        return {
          name: String(p.name ?? ''),
          priceText,
          periodText: periods[String(p.period)] ?? '',
          description: String(p.description ?? ''),
          features: (Array.isArray(p.features) ? p.features : []).map(String),
          buttonLabel: String(p.buttonLabel ?? ''),
          buttonLink: String(p.buttonLink || '#'),
          featured: p.featured === true,
        };
      });
      return plans.length ? { ...base, plans } : null;
    }
    case BlockType.DONATION: {
      const site = await env.app.services.websites.get();
      const form = donationBlockForm(
        env.req,
        { currency: env.currency },
        donationSettingsOf(site.settings),
        isEnabled(site, Feature.DONATIONS),
        block,
        donationStripe(env.app),
      );
      return form ? { ...base, ...form } : null;
    }
    default:
      return null;
  }
}

function mapSearchUrl(p: { address: string; lat: number | null; lng: number | null; zoom: number }): string {
  if (p.lat !== null && p.lng !== null) return `https://www.openstreetmap.org/?mlat=${p.lat}&mlon=${p.lng}#map=${p.zoom}/${p.lat}/${p.lng}`;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(p.address)}`;
}

/** `sizes` of an image in a block `w` columns wide on desktop. */
function sizesFor(block: Block): string {
  const vw = Math.round((block.desktop.w / 12) * 100);
  return `(max-width: 432px) ${Math.round((block.mobile.w / 12) * 100)}vw, ${vw}vw`;
}

function gridStyle(b: Block): string {
  const p = (k: 'd' | 'm', x: { x: number; y: number; w: number; h: number }) =>
    `--${k}-x:${x.x + 1};--${k}-y:${x.y + 1};--${k}-w:${x.w};--${k}-h:${x.h}`;
  return `${p('d', b.desktop)};${p('m', b.mobile)}`;
}

async function sectionJson(env: RenderEnv, s: Section) {
  const blocks: Obj[] = [];
  for (const b of s.blocks) {
    const kind = blockKind(b.type);
    let html = '';
    if (kind) {
      const ctx = await blockContext(env, b, sizesFor(b));
      if (ctx) html = partial(env, `block-${kind.name}.block`, ctx);
    } else if (env.preview) {
      html = `<p class="fe-placeholder" data-placeholder="true">${escapeHtml(em.PLACEHOLDER(blockLabel(b.variant ?? b.type)))}</p>`;
    }
    if (html.trim() === '') continue;
    blocks.push({ id: b.id, name: kind?.name ?? 'placeholder', gridStyle: gridStyle(b), html });
  }
  const theme =
    env.styles.colors.themes.find((t) => t.id === s.theme) ??
    env.styles.colors.themes.find((t) => t.id === env.styles.colors.defaultThemeId);
  const style = s.background ? `--ts-bg:${s.background};--ts-text:${textColourOn(s.background)}` : '';
  return { id: s.id, theme: theme?.id ?? 'white', style, blocks, empty: blocks.length === 0 };
}

/**
 * The editor canvas's picture of some blocks: each block's HTML from its theme partial, exactly as the
 * page renders it (placeholders for blocks the site does not render), by block id.
 */
export async function renderBlocksHtml(layout: PageLayout, env: RenderEnv): Promise<Record<string, { name: string; html: string }>> {
  const out: Record<string, { name: string; html: string }> = {};
  const canvasEnv = { ...env, preview: true, canvas: true };
  for (const s of layout.sections) {
    for (const b of s.blocks) {
      const kind = blockKind(b.type);
      let html = '';
      if (kind) {
        const ctx = await blockContext(canvasEnv, b, sizesFor(b));
        if (ctx) html = partial(canvasEnv, `block-${kind.name}.block`, ctx);
      } else {
        html = `<p class="fe-placeholder" data-placeholder="true">${escapeHtml(em.PLACEHOLDER(blockLabel(b.variant ?? b.type)))}</p>`;
      }
      out[b.id] = { name: kind?.name ?? 'placeholder', html: html.trim() };
    }
  }
  return out;
}

/** The HTML of a layout through the theme (`page-layout.block`). */
export async function renderLayout(layout: PageLayout, env: RenderEnv): Promise<string> {
  const sections = [];
  for (const s of layout.sections) sections.push(await sectionJson(env, s));
  return partial(env, 'page-layout.block', { stylesCss: stylesCss(env.styles), sections: sections.filter((s) => !s.empty) });
}

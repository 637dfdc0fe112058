/** The demo page built from editor blocks: "The Studio" at /studio, published. Safe to run twice. */
import { eq, and } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { layoutSearchText } from './search-text.js';
import { newId } from '../../db/ids.js';
import { CollectionType, BlockType } from '../../core/enums.js';
import {
  addBlock,
  addSection,
  createBlock,
  emptyLayout,
  resizeBlock,
  serializeLayout,
  type PageLayout,
  type OpResult,
} from '../../core/layout.js';

export const DEMO_PAGE_URL_ID = 'studio';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}

/** The demo layout: a heading and text beside an image, a button, a quote, a gallery, the journal, a product, a chart and questions. */
export function demoLayout(refs: { journalId?: string; productId?: string }): PageLayout {
  let n = 0;
  const ids = { newId: (p: string) => `${p}demo${++n}` };
  let l = must(addSection(emptyLayout(), 0, { ...ids, theme: 'white' }));
  const intro = l.sections[0].id;
  const text = createBlock(BlockType.HTML, {
    ...ids,
    w: 6,
    h: 4,
    data: {
      html: '<h2>Made slowly, in the studio</h2><p>Every piece we sell is cut, sewn or turned by hand in our workshop by the river. Come and see how it is done.</p>',
    },
  });
  l = must(addBlock(l, intro, text));
  const image = createBlock(BlockType.IMAGE_POSTER, {
    ...ids,
    w: 6,
    h: 4,
    data: {
      assetUrl: '/demo-media/gallery-2.jpg',
      originalSize: '1200x1200',
      altText: 'Terracotta hills behind the workshop',
      title: 'The view from our bench',
    },
  });
  l = must(addBlock(l, intro, image));
  l = must(resizeBlock(l, image.id, 'desktop', { x: 6, y: 0 }));
  l = must(
    addBlock(
      l,
      intro,
      createBlock(BlockType.BUTTON, {
        ...ids,
        w: 4,
        h: 1,
        data: { label: 'Visit the shop', link: '/shop', style: 'primary', align: 'left' },
      }),
    ),
  );

  l = must(addSection(l, 1, { ...ids, theme: 'accent' }));
  const band = l.sections[1].id;
  l = must(
    addBlock(
      l,
      band,
      createBlock(BlockType.QUOTE, {
        ...ids,
        data: { text: 'Good tools, good wood, and time. That is the whole secret.', source: 'Maya Ortega, founder' },
      }),
    ),
  );

  l = must(addSection(l, 2, { ...ids, theme: 'light' }));
  const more = l.sections[2].id;
  l = must(
    addBlock(
      l,
      more,
      createBlock(BlockType.GALLERY_GRID, {
        ...ids,
        data: {
          images: [1, 2, 3, 4].map((i) => ({
            assetUrl: `/demo-media/gallery-${i}.jpg`,
            originalSize: '1200x1200',
            altText: ['The valley at dawn', 'Terracotta hills', 'Blue ridge', 'Late summer fields'][i - 1],
            title: '',
          })),
        },
      }),
    ),
  );
  if (refs.journalId)
    l = must(
      addBlock(
        l,
        more,
        createBlock(BlockType.SUMMARY_LIST, { ...ids, data: { collectionId: refs.journalId, title: 'From the journal', limit: 3 } }),
      ),
    );
  if (refs.productId) l = must(addBlock(l, more, createBlock(BlockType.PRODUCT, { ...ids, w: 4, data: { productId: refs.productId } })));
  l = must(
    addBlock(
      l,
      more,
      createBlock(BlockType.CHART_BAR, {
        ...ids,
        w: 8,
        data: {
          title: 'Pieces made each season',
          columns: ['Shirts', 'Boards'],
          rows: [
            { label: 'Spring', values: [40, 12] },
            { label: 'Summer', values: [55, 18] },
            { label: 'Autumn', values: [38, 25] },
          ],
          showLegend: true,
        },
      }),
    ),
  );
  l = must(
    addBlock(
      l,
      more,
      createBlock(BlockType.ACCORDION, {
        ...ids,
        data: {
          items: [
            { title: 'Can I visit the studio?', body: '<p>Yes: Saturdays from 10 to 4.</p>' },
            { title: 'Do you take commissions?', body: '<p>Write to us with what you have in mind.</p>' },
          ],
        },
      }),
    ),
  );
  return l;
}

/** Writes the demo page and its published layout inside the seed's transaction. */
export async function seedEditorDemo(tx: Tx, websiteId: string, refs: { journalId?: string; productId?: string } = {}): Promise<string> {
  const [existing] = await tx
    .select({ id: schema.collections.id })
    .from(schema.collections)
    .where(and(eq(schema.collections.websiteId, websiteId), eq(schema.collections.urlId, DEMO_PAGE_URL_ID)));
  if (existing) return existing.id;
  const id = newId();
  const layout = demoLayout(refs);
  await tx.insert(schema.collections).values({
    id,
    websiteId,
    urlId: DEMO_PAGE_URL_ID,
    title: 'The Studio',
    navigationTitle: 'The Studio',
    type: CollectionType.PAGE,
    typeName: 'page',
    ordering: 50,
    settings: { body: '', layoutText: layoutSearchText(layout) },
  });
  const text = serializeLayout(layout);
  const now = new Date();
  await tx.insert(schema.pageLayouts).values({
    collectionId: id,
    websiteId,
    draft: text,
    published: text,
    status: 'published',
    version: 1,
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

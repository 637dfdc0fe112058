import { schema, type Database, type Db, type Tx } from '../db/index.js';
import { newId } from '../db/ids.js';
import { CollectionType, ProductType, RecordType } from '../core/enums.js';

const img = (name: string, alt: string) => ({ assetUrl: `/demo-media/${name}.svg`, originalSize: '600x600', mediaFocalPoint: { x: 0.5, y: 0.5 }, altText: alt });

interface VariantSeed {
  sku: string;
  attributes?: Record<string, string>;
  price: number;
  salePrice?: number;
  onSale?: boolean;
  stock?: number;
  unlimited?: boolean;
}

interface ProductSeed {
  urlId: string;
  title: string;
  body: string;
  productType: number;
  image: [string, string];
  variants: VariantSeed[];
  extra?: Record<string, unknown>;
}

/** The demo store's products: every product kind the specs name. */
export const DEMO_PRODUCTS: ProductSeed[] = [
  {
    urlId: 'linen-camp-shirt',
    title: 'Linen Camp Shirt',
    body: '<p>A relaxed camp-collar shirt in washed European linen. Breathable, soft from the first wear, and cut a little roomy.</p>',
    productType: ProductType.PHYSICAL,
    image: ['linen-shirt', 'A sand-coloured linen shirt'],
    extra: { variantOptionOrdering: ['Size', 'Color'] },
    variants: [
      { sku: 'SHIRT-S-SAND', attributes: { Size: 'S', Color: 'Sand' }, price: 6800, stock: 4 },
      { sku: 'SHIRT-M-SAND', attributes: { Size: 'M', Color: 'Sand' }, price: 6800, unlimited: true },
      { sku: 'SHIRT-L-SAND', attributes: { Size: 'L', Color: 'Sand' }, price: 6800, stock: 2 },
      { sku: 'SHIRT-S-NAVY', attributes: { Size: 'S', Color: 'Navy' }, price: 7200, stock: 6 },
      { sku: 'SHIRT-M-NAVY', attributes: { Size: 'M', Color: 'Navy' }, price: 7200, stock: 1 },
      { sku: 'SHIRT-L-NAVY', attributes: { Size: 'L', Color: 'Navy' }, price: 7200, stock: 0 },
    ],
  },
  {
    urlId: 'ceramic-pour-over-set',
    title: 'Ceramic Pour-Over Set',
    body: '<p>A hand-glazed dripper and carafe for two cups of clear, bright coffee.</p>',
    productType: ProductType.PHYSICAL,
    image: ['pour-over', 'A green ceramic pour-over dripper'],
    variants: [{ sku: 'POUR-OVER', price: 5400, salePrice: 3900, onSale: true, stock: 12 }],
  },
  {
    urlId: 'merino-wool-throw',
    title: 'Merino Wool Throw',
    body: '<p>A heavyweight merino throw woven in a small mill in Portugal.</p>',
    productType: ProductType.PHYSICAL,
    image: ['wool-throw', 'A folded brown wool throw'],
    variants: [
      { sku: 'THROW-CLAY', attributes: { Color: 'Clay' }, price: 16500, stock: 0 },
      { sku: 'THROW-OAT', attributes: { Color: 'Oat' }, price: 16500, stock: 0 },
    ],
  },
  {
    urlId: 'houseplant-field-guide',
    title: 'The Houseplant Field Guide (eBook)',
    body: '<p>Ninety pages on light, water and soil for forty common houseplants. PDF and EPUB.</p>',
    productType: ProductType.DIGITAL,
    image: ['houseplants-ebook', 'The cover of a green houseplant guide'],
    variants: [{ sku: 'EBOOK-PLANTS', price: 1200, unlimited: true }],
  },
  {
    urlId: 'bike-tune-up',
    title: 'Bike Tune-Up',
    body: '<p>A full tune-up in our workshop: gears, brakes, wheels trued, chain cleaned. Book a slot and drop your bike off.</p>',
    productType: ProductType.SERVICE,
    image: ['bike-tune-up', 'A bicycle wheel'],
    variants: [{ sku: 'SERVICE-TUNEUP', price: 8500, stock: 10 }],
  },
  {
    urlId: 'gift-card',
    title: 'Gift Card',
    body: '<p>Let them choose. Delivered by email with a code to use at checkout.</p>',
    productType: ProductType.GIFT_CARD,
    image: ['gift-card', 'A terracotta gift card'],
    variants: [
      { sku: 'GIFT-25', attributes: { Amount: '$25' }, price: 2500, unlimited: true },
      { sku: 'GIFT-50', attributes: { Amount: '$50' }, price: 5000, unlimited: true },
      { sku: 'GIFT-100', attributes: { Amount: '$100' }, price: 10000, unlimited: true },
    ],
  },
  {
    urlId: 'fresh-roast-coffee-subscription',
    title: 'Fresh Roast Coffee Subscription',
    body: '<p>A 340 g bag of a seasonal single origin, roasted to order and sent every month.</p>',
    productType: ProductType.PHYSICAL,
    image: ['coffee-subscription', 'A bag of coffee beans'],
    extra: { isSubscribable: true, subscriptionPlan: { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 } },
    variants: [{ sku: 'COFFEE-SUB', price: 1800, unlimited: true }],
  },
  {
    urlId: 'engraved-cutting-board',
    title: 'Engraved Walnut Cutting Board',
    body: '<p>Solid black walnut, oiled by hand and engraved with the name or date you choose.</p>',
    productType: ProductType.PHYSICAL,
    image: ['cutting-board', 'A walnut cutting board'],
    extra: {
      additionalFieldsFormId: 'engraving-form',
      additionalFieldsForm: {
        id: 'engraving-form',
        name: 'Engraving',
        fields: [
          { id: 'engraving-text', type: 'text', title: 'Engraving text', required: true, description: 'Up to 30 characters.' },
          { id: 'engraving-font', type: 'select', title: 'Font', required: true, options: ['Serif', 'Script', 'Block'] },
        ],
      },
    },
    variants: [{ sku: 'BOARD-WALNUT', price: 9500, stock: 15 }],
  },
];

const POSTS = [
  {
    urlId: 'how-we-choose-our-linen',
    title: 'How we choose our linen',
    excerpt: 'Three mills, two winters of testing, and why we settled on a washed 185 gsm weave.',
    body: '<p>Linen is a wonderfully honest fibre. We tried cloth from three mills over two winters before we settled on a washed 185 gsm weave that softens quickly and holds its shape.</p>',
    author: 'Maya Ortega',
    image: ['journal-1', 'Morning sun over a field'],
    daysAgo: 40,
    comments: [
      { authorName: 'Jonas', body: 'Love the transparency. My shirt from last year is still going strong.' },
      { authorName: 'Priya', body: 'Any plans for a linen dress?' },
    ],
  },
  {
    urlId: 'a-better-morning-cup',
    title: 'A better morning cup',
    excerpt: 'Grind size, water at 94 °C, and a slow first pour: small changes that make the pour-over sing.',
    body: '<p>Start with fresh beans and a medium-fine grind. Bloom with twice the weight of the coffee in water, wait thirty seconds, then pour slowly in circles.</p>',
    author: 'Sam Lee',
    image: ['journal-2', 'A single leaf'],
    daysAgo: 12,
    comments: [{ authorName: 'Ana', body: 'The 30 second bloom made a real difference, thank you!' }],
  },
  {
    urlId: 'workshop-open-saturdays',
    title: 'Our workshop is now open on Saturdays',
    excerpt: 'Drop your bike off on a Saturday morning and pick it up, tuned, the same afternoon.',
    body: '<p>From this month the workshop opens on Saturdays from 9 to 3. Book a tune-up online and we will have it ready the same day.</p>',
    author: 'Maya Ortega',
    image: ['journal-3', 'An evening sky'],
    daysAgo: 3,
    comments: [],
  },
];

export interface SeedResult {
  websiteId: string;
  productIds: Record<string, string>;
  variantIds: Record<string, string>;
}

/** Deletes every row (keeps the schema). */
export async function resetData(database: Database): Promise<void> {
  await database.exec(
    'TRUNCATE TABLE cart_entries, carts, product_variants, comments, items, collections, owner_sessions, accounts, site_users, websites RESTART IDENTITY CASCADE',
  );
}

export async function hasWebsite(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: schema.websites.id }).from(schema.websites).limit(1);
  return rows.length > 0;
}

/** Seeds the demo store: website, navigation, a shop, pages, a journal and a gallery. */
export async function seedDemo(database: Database, now = new Date()): Promise<SeedResult> {
  return database.db.transaction((tx) => seedInto(tx, now));
}

/** The demo store, written inside the caller's transaction. */
export async function seedInto(tx: Tx, now = new Date()): Promise<SeedResult> {
  const websiteId = newId();
  const ids = { shop: newId(), about: newId(), journal: newId(), gallery: newId(), contact: newId() };
  await tx.insert(schema.websites).values({
    id: websiteId,
    title: 'Fernhill Supply Co.',
    currency: 'USD',
    locale: 'en-US',
    timeZone: 'America/New_York',
    settings: {
      siteDescription: 'Useful, well-made things for home and table, from a small shop in Portland.',
      homeCollectionId: ids.shop,
      commentsEnabled: true,
      navigation: {
        mainNav: [
          { title: 'Shop', collectionId: ids.shop },
          { title: 'Journal', collectionId: ids.journal },
          { title: 'Gallery', collectionId: ids.gallery },
          { title: 'About', collectionId: ids.about },
          { title: 'Contact', collectionId: ids.contact },
        ],
        secondaryNav: [],
      },
      storeSettings: { multipleQuantityAllowedForServices: true, restockNotificationsSuccessText: 'Signed up!' },
      codeInjection: { header: '', footer: '' },
    },
  });
  await tx.insert(schema.collections).values([
    { id: ids.shop, websiteId, urlId: 'shop', title: 'Shop', type: CollectionType.PRODUCTS, typeName: 'products', ordering: 0, description: '' },
    { id: ids.journal, websiteId, urlId: 'journal', title: 'Journal', type: CollectionType.GENERIC, typeName: 'blog', ordering: 1 },
    { id: ids.gallery, websiteId, urlId: 'gallery', title: 'Gallery', type: CollectionType.GENERIC, typeName: 'gallery', ordering: 2, settings: { design: 'grid' } },
    {
      id: ids.about,
      websiteId,
      urlId: 'about',
      title: 'About',
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 3,
      settings: { body: '<p>Fernhill Supply Co. is a small shop in Portland selling useful, well-made things for home and table. We work with a handful of makers we know by name.</p>' },
    },
    {
      id: ids.contact,
      websiteId,
      urlId: 'contact',
      title: 'Contact',
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 4,
      settings: { body: '<p>Questions about an order, a wholesale enquiry, or just hello: write to us and we answer within a day.</p>', formId: 'contact-form' },
    },
  ]);

  const productIds: Record<string, string> = {};
  const variantIds: Record<string, string> = {};
  let order = 0;
  for (const p of DEMO_PRODUCTS) {
    const id = newId();
    productIds[p.urlId] = id;
    await tx.insert(schema.items).values({
      id,
      websiteId,
      collectionId: ids.shop,
      urlId: p.urlId,
      title: p.title,
      recordType: RecordType.STORE_ITEM,
      body: p.body,
      excerpt: p.body.replace(/<[^>]+>/g, '').slice(0, 250),
      assets: [img(p.image[0], p.image[1])],
      structuredContent: { productType: p.productType, isSubscribable: false, useCustomAddButtonText: false, customAddButtonText: '', ...p.extra },
      ordering: order++,
      publishOn: now,
    });
    let vo = 0;
    for (const v of p.variants) {
      const vid = newId();
      variantIds[v.sku] = vid;
      await tx.insert(schema.productVariants).values({
        id: vid,
        itemId: id,
        sku: v.sku,
        attributes: v.attributes ?? {},
        priceCents: v.price,
        salePriceCents: v.salePrice ?? 0,
        onSale: v.onSale ?? false,
        qtyInStock: v.stock ?? 0,
        unlimited: v.unlimited ?? false,
        ordering: vo++,
      });
    }
  }

  order = 0;
  for (const post of POSTS) {
    const id = newId();
    const at = new Date(now.getTime() - post.daysAgo * 86_400_000);
    await tx.insert(schema.items).values({
      id,
      websiteId,
      collectionId: ids.journal,
      urlId: post.urlId,
      title: post.title,
      recordType: RecordType.TEXT,
      body: post.body,
      excerpt: post.excerpt,
      author: post.author,
      tags: ['shop notes'],
      categories: ['News'],
      assets: [img(post.image[0], post.image[1])],
      commentState: 1,
      publishOn: at,
      ordering: order++,
    });
    let c = 0;
    for (const cm of post.comments) {
      await tx.insert(schema.comments).values({ id: newId(), itemId: id, authorName: cm.authorName, body: cm.body, createdAt: new Date(at.getTime() + ++c * 3_600_000) });
    }
  }

  const pictures: Array<[string, string, string]> = [
    ['gallery-1', 'The valley at dawn', 'valley-at-dawn'],
    ['gallery-2', 'Terracotta hills', 'terracotta-hills'],
    ['gallery-3', 'Blue ridge', 'blue-ridge'],
    ['gallery-4', 'Late summer fields', 'late-summer-fields'],
  ];
  order = 0;
  for (const [file, title, urlId] of pictures) {
    await tx.insert(schema.items).values({
      id: newId(),
      websiteId,
      collectionId: ids.gallery,
      urlId,
      title,
      recordType: RecordType.IMAGE,
      assets: [img(file, title)],
      ordering: order++,
      publishOn: now,
    });
  }
  return { websiteId, productIds, variantIds };
}

import { schema, type Database, type Db, type Tx } from '../db/index.js';
import { newId } from '../db/ids.js';
import { CollectionType, ProductType, RecordType } from '../core/enums.js';
import { seedInstalmentPreferences } from './instalments/preferences.js';
import { seedForms } from './forms/seed.js';
import { seedEditorDemo } from './editor/seed.js';
import { seedMembers } from './members/service.js';

/** Demo images are photo-like JPEGs made from the SVG drawings by src/server/images/make-demo-images.ts. */
const img = (name: string, alt: string, focal = { x: 0.5, y: 0.5 }) => ({
  assetUrl: `/demo-media/${name}.jpg`,
  originalSize: '1200x1200',
  mediaFocalPoint: focal,
  altText: alt,
});

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

/** The demo store's products: every product kind (physical, digital, service, gift card). */
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
    extra: { variantOptionOrdering: ['Color'] },
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
    extra: { variantOptionOrdering: ['Amount'] },
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

interface PostSeed {
  urlId: string;
  title: string;
  excerpt: string;
  body: string;
  author: string;
  image: [string, string];
  daysAgo: number;
  tags?: string[];
  categories?: string[];
  recordType?: number;
  structuredContent?: Record<string, unknown>;
  comments: Array<{ authorName: string; body: string }>;
}

const POSTS: PostSeed[] = [
  {
    urlId: 'how-we-choose-our-linen',
    title: 'How we choose our linen',
    excerpt: 'Three mills, two winters of testing, and why we settled on a washed 185 gsm weave.',
    body: '<p>Linen is a wonderfully honest fibre. We tried cloth from three mills over two winters before we settled on a washed 185 gsm weave that softens quickly and holds its shape.</p>',
    author: 'Maya Ortega',
    image: ['journal-1', 'Morning sun over a field'],
    tags: ['linen', 'makers'],
    categories: ['Stories'],
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
    tags: ['coffee', 'guides'],
    categories: ['Guides'],
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
  {
    urlId: 'caring-for-walnut',
    title: 'Caring for a walnut cutting board',
    excerpt: 'Wash by hand, dry standing up, and oil it once a month: a board that lasts a lifetime.',
    body: '<p>Walnut is hard enough to last and soft enough to spare your knives. Wash it by hand in warm soapy water, dry it standing on its edge, and rub in a food-safe oil once a month.</p><h2>What to avoid</h2><p>Never leave it soaking and never put it in the dishwasher: the wood swells, dries unevenly and cracks.</p>',
    author: 'Sam Lee',
    image: ['cutting-board', 'A walnut cutting board'],
    daysAgo: 400,
    tags: ['care', 'kitchen'],
    categories: ['Guides'],
    comments: [],
  },
  {
    urlId: 'podcast-episode-1-makers',
    title: 'Podcast: meeting the makers',
    excerpt: 'Maya talks to the weaver behind our merino throw about small mills and slow cloth.',
    body: '<p>In our first episode Maya talks to the weaver behind our merino throw about small mills, slow cloth and why a blanket should outlive its owner.</p>',
    author: 'Maya Ortega',
    image: ['wool-throw', 'A folded brown wool throw'],
    daysAgo: 75,
    tags: ['podcast', 'makers'],
    categories: ['Stories'],
    recordType: RecordType.AUDIO,
    structuredContent: { audioAssetUrl: '/demo-media/chime.wav', duration: 2000, title: 'Meeting the makers' },
    comments: [],
  },
  {
    urlId: 'bike-tune-up-in-two-minutes',
    title: 'Video: a bike tune-up in two minutes',
    excerpt: 'What happens to your bike in our workshop, from gears to a trued wheel.',
    body: '<p>A short film from the workshop: gears indexed, brakes bled, wheels trued and a chain that runs quietly again.</p>',
    author: 'Sam Lee',
    image: ['bike-tune-up', 'A bicycle wheel'],
    daysAgo: 20,
    tags: ['workshop', 'video'],
    categories: ['Stories'],
    recordType: RecordType.VIDEO,
    structuredContent: { videoUrl: 'https://example.com/videos/bike-tune-up', providerName: 'Example Video', duration: 120_000 },
    comments: [{ authorName: 'Lena', body: 'Great to see behind the scenes.' }],
  },
];

const EVENTS = [
  {
    urlId: 'saturday-workshop-open-day',
    title: 'Saturday workshop open day',
    excerpt: 'Bring your bike, meet the mechanics, and learn to index your own gears.',
    body: '<p>Bring your bike, meet the mechanics, and learn to index your own gears. Coffee from our pour-over bar all morning.</p>',
    image: ['bike-tune-up', 'A bicycle wheel'],
    startsInDays: 9,
    hours: 4,
    location: {
      addressTitle: 'Fernhill Workshop',
      addressLine1: '1120 SE Division St',
      addressLine2: 'Portland, OR 97202',
      addressCountry: 'United States',
      mapLat: 45.5048,
      mapLng: -122.6536,
    },
  },
  {
    urlId: 'pour-over-tasting-evening',
    title: 'Pour-over tasting evening',
    excerpt: 'Three single origins side by side, brewed three ways.',
    body: '<p>Three single origins side by side, brewed three ways. Eight seats, so book early.</p>',
    image: ['pour-over', 'A green ceramic pour-over dripper'],
    startsInDays: 23,
    hours: 2,
    location: {
      addressTitle: 'Fernhill Shop',
      addressLine1: '2200 NE Alberta St',
      addressLine2: 'Portland, OR 97211',
      addressCountry: 'United States',
      mapLat: 45.559,
      mapLng: -122.6432,
    },
  },
  {
    urlId: 'winter-makers-market',
    title: 'Winter makers market',
    excerpt: 'Twenty makers from the Pacific Northwest under one roof.',
    body: '<p>Twenty makers from the Pacific Northwest under one roof: ceramics, linen, wood and wool.</p>',
    image: ['gallery-4', 'Late summer fields'],
    startsInDays: -30,
    hours: 6,
    location: {
      addressTitle: 'Old Town Hall',
      addressLine1: '1 Market St',
      addressLine2: 'Portland, OR 97204',
      addressCountry: 'United States',
      mapLat: 45.52,
      mapLng: -122.67,
    },
  },
];

const PAGES = [
  {
    key: 'faq',
    urlId: 'faq',
    title: 'Questions',
    body: '<h2>How long does shipping take?</h2><p>Orders leave the shop within two working days and arrive in three to five.</p><h2>Can I return something?</h2><p>Yes, within thirty days, unused and in its packaging.</p>',
  },
  {
    key: 'shipping',
    urlId: 'shipping-and-returns',
    title: 'Shipping and returns',
    body: '<p>Free shipping on orders over $100 in the United States. Returns within thirty days.</p>',
  },
  {
    key: 'members',
    urlId: 'members',
    title: 'Members',
    body: '<p>Early access to new makers, member prices and the workshop calendar.</p>',
  },
];

export interface SeedResult {
  websiteId: string;
  collectionIds: Record<string, string>;
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

export interface SeedOptions {
  /**
   * Seed the demo store's shipping option (default true), so a physical product can be checked out on
   * the first start. The test harness turns it off: its checkout tests set up their own options.
   */
  shipping?: boolean;
}

/** The demo store's shipping option: a flat rate that ships everywhere. */
export const DEMO_SHIPPING_OPTION = { name: 'Standard shipping', kind: 'flat', priceCents: 500 } as const;

/** Seeds the demo store: website, navigation, a shop, pages, a journal and a gallery. */
export async function seedDemo(database: Database, now = new Date(), opts: SeedOptions = {}): Promise<SeedResult> {
  return database.db.transaction((tx) => seedInto(tx, now, opts));
}

/** The demo store, written inside the caller's transaction. */
// eslint-disable-next-line max-lines-per-function -- not split yet (the split stream ran out of time)
export async function seedInto(tx: Tx, now = new Date(), opts: SeedOptions = {}): Promise<SeedResult> {
  const websiteId = newId();
  const ids = {
    shop: newId(),
    about: newId(),
    journal: newId(),
    gallery: newId(),
    contact: newId(),
    events: newId(),
    more: newId(),
    faq: newId(),
    shipping: newId(),
    members: newId(),
  };
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
          { title: 'Events', collectionId: ids.events },
          { title: 'Gallery', collectionId: ids.gallery },
          { title: 'About', collectionId: ids.about },
          { title: 'Contact', collectionId: ids.contact },
          {
            title: 'More',
            collectionId: ids.more,
            children: [
              { title: 'Questions', collectionId: ids.faq },
              { title: 'Our makers on Instagram', externalLink: 'https://www.instagram.com/' },
            ],
          },
        ],
        secondaryNav: [],
        _hidden: [{ title: 'Shipping and returns', collectionId: ids.shipping }],
        _memberareas: [{ title: 'Members', collectionId: ids.members, memberAreaId: 'fernhill-members' }],
      },
      socialAccounts: [
        { serviceName: 'instagram', profileUrl: 'https://www.instagram.com/', screenname: 'fernhillsupply' },
        { serviceName: 'pinterest', profileUrl: 'https://www.pinterest.com/', screenname: 'fernhillsupply' },
      ],
      shareButtonOptions: { facebook: true, twitter: true, pinterest: true, email: true },
      storeSettings: { multipleQuantityAllowedForServices: true, restockNotificationsSuccessText: 'Signed up!', instalmentsEnabled: true },
      codeInjection: { header: '', footer: '' },
    },
  });
  await tx.insert(schema.collections).values([
    {
      id: ids.shop,
      websiteId,
      urlId: 'shop',
      title: 'Shop',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 0,
      description: '',
    },
    { id: ids.journal, websiteId, urlId: 'journal', title: 'Journal', type: CollectionType.GENERIC, typeName: 'blog', ordering: 1 },
    {
      id: ids.gallery,
      websiteId,
      urlId: 'gallery',
      title: 'Gallery',
      type: CollectionType.GENERIC,
      typeName: 'gallery',
      ordering: 2,
      description: 'Landscapes from the roads between our makers.',
      settings: {
        design: 'grid',
        'aspect-ratio': 'standard',
        'thumbnails-per-row': 3,
        padding: 16,
        lightbox: true,
        lightboxTheme: 'dark',
        'show-meta-on-hover': true,
      },
    },
    {
      id: ids.events,
      websiteId,
      urlId: 'events',
      title: 'Events',
      type: CollectionType.GENERIC,
      typeName: 'events',
      ordering: 5,
      description: 'Workshops, tastings and markets.',
    },
    {
      id: ids.more,
      websiteId,
      urlId: 'more',
      title: 'More',
      type: CollectionType.GENERIC,
      typeName: 'folder',
      ordering: 6,
      settings: { folderBehavior: 1 },
    },
    ...PAGES.map((pg, i) => ({
      id: ids[pg.key as 'faq' | 'shipping' | 'members'],
      websiteId,
      urlId: pg.urlId,
      title: pg.title,
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 7 + i,
      settings: { body: pg.body },
    })),
    {
      id: ids.about,
      websiteId,
      urlId: 'about',
      title: 'About',
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 3,
      settings: {
        body: '<p>Fernhill Supply Co. is a small shop in Portland selling useful, well-made things for home and table. We work with a handful of makers we know by name.</p>',
      },
    },
    {
      id: ids.contact,
      websiteId,
      urlId: 'contact',
      title: 'Contact',
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 4,
      settings: {
        body: '<p>Questions about an order, a wholesale enquiry, or just hello: write to us and we answer within a day.</p>',
        formId: 'contact-form',
      },
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
      // The shape the product API saves (variantOptionOrdering always present), so an unchanged save changes nothing.
      structuredContent: {
        productType: p.productType,
        isSubscribable: false,
        variantOptionOrdering: [],
        useCustomAddButtonText: false,
        customAddButtonText: '',
        ...p.extra,
      },
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
      recordType: post.recordType ?? RecordType.TEXT,
      body: post.body,
      excerpt: post.excerpt,
      author: post.author,
      tags: post.tags ?? ['shop notes'],
      categories: post.categories ?? ['News'],
      structuredContent: post.structuredContent ?? {},
      assets: [img(post.image[0], post.image[1])],
      commentState: 1,
      publishOn: at,
      ordering: order++,
    });
    let c = 0;
    for (const cm of post.comments) {
      await tx
        .insert(schema.comments)
        .values({ id: newId(), itemId: id, authorName: cm.authorName, body: cm.body, createdAt: new Date(at.getTime() + ++c * 3_600_000) });
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
  order = 0;
  const day = 86_400_000;
  for (const ev of EVENTS) {
    const start = new Date(Math.floor((now.getTime() + ev.startsInDays * day) / day) * day + 17 * 3_600_000);
    await tx.insert(schema.items).values({
      id: newId(),
      websiteId,
      collectionId: ids.events,
      urlId: ev.urlId,
      title: ev.title,
      recordType: RecordType.EVENT,
      body: ev.body,
      excerpt: ev.excerpt,
      author: 'Maya Ortega',
      tags: ['events'],
      categories: ['Events'],
      assets: [img(ev.image[0], ev.image[1])],
      structuredContent: { startDate: start.getTime(), endDate: start.getTime() + ev.hours * 3_600_000, location: ev.location },
      publishOn: new Date(now.getTime() - 5 * day),
      ordering: order++,
    });
  }
  await seedInstalmentPreferences(tx, websiteId);
  await seedForms(tx, websiteId);
  await seedEditorDemo(tx, websiteId, { journalId: ids.journal, productId: productIds['linen-camp-shirt'] });
  await seedMembers(tx, websiteId);
  if (opts.shipping !== false) await tx.insert(schema.shippingOptions).values({ id: newId(), websiteId, ...DEMO_SHIPPING_OPTION });
  return { websiteId, collectionIds: ids, productIds, variantIds };
}

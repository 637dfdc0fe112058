/**
 * The benchmark catalogue that bench:pages and bench/render-cpu.ts add to the demo store: the '50-product list'
 * they both measure.
 */
export const CATALOG_SIZE = 50;

/** Adds a 'catalog' products collection of 50 products, two variants each, to the demo store. */
export async function addCatalog(database: import('../src/db/index.js').Database, websiteId: string) {
  const { schema } = await import('../src/db/index.js');
  const { newId } = await import('../src/db/ids.js');
  const { CollectionType, RecordType } = await import('../src/core/enums.js');
  const pictures = [
    'linen-shirt',
    'pour-over',
    'wool-throw',
    'cutting-board',
    'gift-card',
    'bike-tune-up',
    'coffee-subscription',
    'houseplants-ebook',
  ];
  await database.db.transaction(async (tx) => {
    const collectionId = newId();
    await tx.insert(schema.collections).values({
      id: collectionId,
      websiteId,
      urlId: 'catalog',
      title: 'Catalog',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 20,
    });
    for (let i = 0; i < CATALOG_SIZE; i++) {
      const id = newId();
      const pic = pictures[i % pictures.length]!;
      await tx.insert(schema.items).values({
        id,
        websiteId,
        collectionId,
        urlId: `catalog-product-${i + 1}`,
        title: `Catalog product ${i + 1}`,
        recordType: RecordType.STORE_ITEM,
        body: `<p>Product number ${i + 1} of the benchmark catalog.</p>`,
        assets: [
          {
            assetUrl: `/demo-media/${pic}.jpg`,
            originalSize: '1200x1200',
            mediaFocalPoint: { x: 0.5, y: 0.5 },
            altText: `Picture ${i + 1}`,
          },
        ],
        structuredContent: { productType: 1 },
        ordering: i,
      });
      for (const [n, size] of ['S', 'M'].entries()) {
        await tx.insert(schema.productVariants).values({
          id: newId(),
          itemId: id,
          sku: `CAT-${i + 1}-${size}`,
          attributes: { Size: size },
          priceCents: 1000 + i * 100,
          qtyInStock: 5,
          ordering: n,
        });
      }
    }
  });
}

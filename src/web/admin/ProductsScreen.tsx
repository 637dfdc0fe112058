/**
 * /config/products: the product list; /config/products/new and /config/products/:id: the product editor;
 * /config/products/import: CSV import and export. The screens live in ./catalog (issue 24).
 */
import { useEffect, useState } from 'react';
import { api } from '../client/api.js';
import { Skeleton } from './design.js';
import { ProductList } from './catalog/ProductList.js';
import { ProductEditor, type CatalogSettings } from './catalog/ProductEditor.js';
import { ImportExport } from './catalog/ImportExport.js';

/** The store currency and the site's time zone, which the catalogue screens read amounts and times in. */
export function useCatalogSettings(): CatalogSettings | null {
  const [s, setS] = useState<CatalogSettings | null>(null);
  useEffect(() => {
    api<CatalogSettings>('GET', '/api/config/catalog/settings').then(setS, () => setS({ currency: 'USD', timeZone: 'UTC' }));
  }, []);
  return s;
}

export function ProductsScreen({ path }: { path: string }) {
  const settings = useCatalogSettings();
  if (!settings) return <Skeleton lines={6} label="Loading products" />;
  const m = path.replace(/\/+$/, '').match(/^\/config\/products\/([^/]+)$/);
  if (!m) return <ProductList settings={settings} />;
  if (m[1] === 'import') return <ImportExport />;
  return <ProductEditor id={m[1] === 'new' ? null : m[1]!} settings={settings} />;
}

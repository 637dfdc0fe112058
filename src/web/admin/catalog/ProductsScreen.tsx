/**
 * /config/products: the product list; /config/products/new and /config/products/:id: the product editor;
 * /config/products/import: CSV import and export; /config/products/bulk-edit: the bulk editor. The screens live in ./catalog (issue 24).
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { Skeleton } from '../ui/design.js';
import { ProductList } from './ProductList.js';
import { ProductEditor } from './ProductEditor.js';
import { ImportExport } from './ImportExport.js';
import { BulkEditor } from './BulkEditor.js';
import type { CatalogSettings } from '../../../core/api/catalog.js';

/**
 * The store currency and the site's time zone, which the catalogue screens read amounts and times in (USD and UTC
 * when they cannot be read); key ['catalog-settings'], which saving the site settings marks stale.
 */
export function useCatalogSettings(): CatalogSettings | null {
  const q = useQuery({
    queryKey: ['catalog-settings'],
    queryFn: () =>
      api<CatalogSettings>('GET', '/api/config/catalog/settings').catch((): CatalogSettings => ({ currency: 'USD', timeZone: 'UTC' })),
  });
  return q.data ?? null;
}

export function ProductsScreen({ path }: { path: string }) {
  const settings = useCatalogSettings();
  if (!settings) return <Skeleton lines={6} label="Loading products" />;
  const m = path.replace(/\/+$/, '').match(/^\/config\/products\/([^/]+)$/);
  if (!m) return <ProductList settings={settings} />;
  if (m[1] === 'import') return <ImportExport />;
  if (m[1] === 'bulk-edit') return <BulkEditor settings={settings} />;
  return <ProductEditor id={m[1] === 'new' ? null : m[1]!} settings={settings} />;
}

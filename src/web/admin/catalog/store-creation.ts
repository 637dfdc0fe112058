/**
 * Store creation: create the product collection, then its root category, then
 * optionally put it first in the main navigation, followed by the existing links. The url id is derived
 * from the title (core slug rule); the server re-checks it against the taken ones.
 */
import { platform as platformMessages } from '../../../core/messages.js';
import type { LayoutLink } from '../../../core/api/common.js';

export type Api = <T>(method: string, url: string, body?: unknown) => Promise<T>;

export interface CreatedStore {
  id: string;
  urlId: string;
  title: string;
}

export async function createStore(
  api: Api,
  opts: { websiteId: string; title: string; description?: string; addToNavigation: boolean },
): Promise<CreatedStore> {
  const base = `/api/content-service/product/1.1/websites/${encodeURIComponent(opts.websiteId)}/products`;
  let layout: Array<{ identifier: string; links: LayoutLink[] }> = [];
  if (opts.addToNavigation) {
    layout = await api('GET', '/api/commondata/GetSiteLayout');
    // Checked before anything is created, so a missing navigation leaves no half-made store.
    if (!layout[0]) throw new Error(platformMessages.NO_MAIN_NAVIGATION);
  }
  const store = await api<CreatedStore>('POST', base, {
    navigationTitle: opts.title,
    title: opts.title,
    description: opts.description ?? '',
    enabled: true,
  });
  await api('POST', `${base}/${encodeURIComponent(store.id)}/categories`, {
    displayName: opts.title,
    parentCategoryId: null,
    type: 'ROOT',
    pageRendering: 'LIST_VIEW',
    displayIndex: 1,
  });
  if (opts.addToNavigation) {
    const main = layout[0]!;
    const first: LayoutLink = { title: opts.title, collectionId: store.id, externalLink: null, memberAreaId: null, children: [] };
    await api('POST', '/api/widget/UpdateNavigation', {
      fieldName: main.identifier,
      templateId: 'default',
      navigation: { items: [first, ...main.links] },
    });
  }
  return store;
}

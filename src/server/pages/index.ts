/** The pages area's door: what other areas use of it. */
export type { ClientAssets } from './assets.js';
export {
  allCollections,
  collectionJson,
  type CollectionRow,
  collectionUrl,
  galleryOptions,
  imageJson,
  itemJson,
  type ItemRow,
  itemUrl,
  memberAreaCollections,
  navigationJson,
  productsFor,
  publishedItems,
  websiteJson,
  websiteSettingsJson,
} from './context.js';
export { galleryIsland } from './gallery.js';
export { DEFAULT_THEME_DIR, type PlatformInput, Theme } from './theme.js';
export { contentWidgets } from './widgets.js';

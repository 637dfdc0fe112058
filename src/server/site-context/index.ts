/**
 * The site-context area's door: the site, its navigation, collections and items as the theme templates
 * read them (context.ts), with the gallery island and the content widgets (likes, share buttons) built
 * from them. The pages area renders with these, and so does every other area that renders a page.
 */
export {
  allCollections,
  collectionFacets,
  collectionJson,
  type CollectionRow,
  collectionUrl,
  commentCounts,
  commentsFor,
  folderChildren,
  galleryOptions,
  imageJson,
  type ItemFilter,
  itemJson,
  type ItemRow,
  itemsWithProduct,
  itemUrl,
  listedItemWithProduct,
  memberAreaCollections,
  navigationJson,
  PRODUCTS_TYPE,
  productsFor,
  publishedItems,
  setImageHosts,
  siteShellContext,
  websiteJson,
  websiteSettingsJson,
} from './context.js';
export { galleryIsland } from './gallery.js';
export { contentWidgets } from './widgets.js';

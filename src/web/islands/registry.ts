/**
 * Every island a page may hold, by the name the server writes into `data-island`.
 *
 * HOW TO ADD AN ISLAND (keep the public pages' JavaScript small: issue #4 budget, 80 KB gzipped):
 *
 *   MyWidget: () => import('./MyWidget.js').then((m) => m.MyWidget),
 *
 * - Always a loader with a dynamic `import()`, never a static import at the top of this file: the
 *   browser bundle (`entry-client.tsx`) only downloads the chunk of an island that is on the page,
 *   after the page has painted, and then hydrates it. A static import here would put your island
 *   (and everything it imports) into every public page.
 * - The server (`ssr.tsx`) awaits every loader once when it starts, so `renderIsland('MyWidget', props)`
 *   stays synchronous and renders the island's markup into the page for the first paint.
 * - Props must be JSON (they travel in `data-props`); the component must render the same markup on the
 *   server and in the browser from those props alone (no `window`, `Date.now()` or random ids during
 *   render; read browser state in an effect), or the browser test reports a hydration warning.
 * - Islands that share state (the product controls share productStore) do so through a module in
 *   `web/client/`; the bundler puts it in one shared chunk, so every island sees the same instance.
 */
import type { ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type IslandLoader = () => Promise<ComponentType<any>>;

export const islands: Record<string, IslandLoader> = {
  CartPill: () => import('./CartPill.js').then((m) => m.CartPill),
  RestockSignUp: () => import('./RestockSignUp.js').then((m) => m.RestockSignUp),
  Gallery: () => import('./Gallery.js').then((m) => m.Gallery),
  AddToCart: () => import('./ProductControls.js').then((m) => m.AddToCart),
  VariantSelect: () => import('./ProductControls.js').then((m) => m.VariantSelect),
  QuantityInput: () => import('./ProductControls.js').then((m) => m.QuantityInput),
  ProductScarcity: () => import('./ProductControls.js').then((m) => m.ProductScarcity),
  QuickView: () => import('./QuickView.js').then((m) => m.QuickView),
  CartPage: () => import('../pages/CartPage.js').then((m) => m.CartPage),
  CheckoutPage: () => import('../pages/CheckoutPage.js').then((m) => m.CheckoutPage),
  Form: () => import('./Form.js').then((m) => m.Form),
  AccountPage: () => import('./AccountPage.js').then((m) => m.AccountPage),
  PromoPopup: () => import('./engagement/PromoPopup.js').then((m) => m.PromoPopup),
  CookieBanner: () => import('./engagement/CookieBanner.js').then((m) => m.CookieBanner),
  LessonVideo: () => import('./LessonVideo.js').then((m) => m.LessonVideo),
  AlbumPlayer: () => import('./AlbumPlayer.js').then((m) => m.AlbumPlayer),
  LikeButton: () => import('./LikeButton.js').then((m) => m.LikeButton),
};

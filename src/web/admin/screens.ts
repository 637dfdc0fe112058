import type { ComponentType } from 'react';
import { MembersScreen } from './MembersScreen.js';
import { Dashboard } from './Dashboard.js';
import { ProductsScreen } from './ProductsScreen.js';
import { ContentScreen, NavigationScreen, HeaderFooterScreen, LanguagesScreen, CommercePreferencesScreen } from './SettingsScreens.js';
import { TeamScreen } from './TeamScreen.js';
import { RestockScreen } from './RestockScreen.js';
import { FormsAdmin } from './Forms.js';
import { OrdersScreen } from './OrdersScreen.js';
import { ShippingScreen } from './ShippingScreen.js';
import { TaxScreen } from './TaxScreen.js';
import { CouponsScreen } from './CouponsScreen.js';
import { Analytics } from './Analytics.js';
import { PopupScreen, ListsScreen, CookiesScreen } from './EngagementScreens.js';
import { EmailTemplatesScreen } from './EmailTemplatesScreen.js';
import { PagesEditorScreen, PostsEditorScreen, StylesScreen } from './editor/lazy.js';
import { ReviewsScreen, RelatedProductsScreen, DonationsScreen } from './ReviewsScreens.js';
import { BillingScreen, FeaturesScreen } from './FeaturesScreen.js';
import { SiteAddressScreen } from './SiteAddressScreen.js';
import { ConnectedAccountsScreen } from './ConnectedAccountsScreen.js';
import { SeoScreen } from './SeoScreen.js';
import { SiteSettingsScreen } from './SiteSettingsScreen.js';
import { CustomersScreen } from './CustomersScreen.js';
import { EmailsScreen } from './EmailsScreen.js';
import { EmailSettingsScreen } from './EmailSettingsScreen.js';
import { PaymentsScreen } from './PaymentsScreen.js';
import { InventoryScreen } from './catalog/InventoryScreen.js';

export interface AdminScreen {
  /** Path under /config this screen answers (exact, or a prefix ending in '/'). */
  path: string;
  /** The label in the admin navigation; screens without one are reached from other screens. */
  label?: string;
  component: ComponentType<{ path: string }>;
}

/**
 * Every /config screen. Areas add their screens here; the shell picks the longest matching path.
 * Keep one import and one entry per screen.
 */
export const screens: AdminScreen[] = [{ path: '/config', label: 'Home', component: Dashboard }, { path: '/config/orders', label: 'Orders', component: OrdersScreen }, { path: '/config/shipping', label: 'Shipping', component: ShippingScreen }, { path: '/config/tax', label: 'Tax', component: TaxScreen }, { path: '/config/coupons', label: 'Coupons', component: CouponsScreen }, { path: '/config/analytics', label: 'Analytics', component: Analytics }, { path: '/config/forms', label: 'Forms', component: FormsAdmin }, { path: '/config/restock', label: 'Back in stock', component: RestockScreen }];

/** Platform screens: products and stores, navigation, pages and posts, header/footer code, languages, commerce preferences, team. */
screens.push(
  { path: '/config/products', label: 'Products', component: ProductsScreen },
  { path: '/config/navigation', label: 'Navigation', component: NavigationScreen },
  { path: '/config/content', label: 'Pages & posts', component: ContentScreen },
  { path: '/config/code', label: 'Header & footer', component: HeaderFooterScreen },
  { path: '/config/languages', label: 'Languages', component: LanguagesScreen },
  { path: '/config/commerce', label: 'Commerce', component: CommercePreferencesScreen },
  { path: '/config/team', label: 'Team', component: TeamScreen },
);

/** Engagement: promo popup, mailing lists, cookie banner, email preview (301). */
screens.push(
  { path: '/config/popup', label: 'Promo popup', component: PopupScreen },
  { path: '/config/mailing-lists', label: 'Mailing lists', component: ListsScreen },
  { path: '/config/cookies', label: 'Cookie banner', component: CookiesScreen },
  { path: '/config/emails', label: 'Email preview', component: EmailTemplatesScreen },
);

/** Reviews moderation, related products, donations. */
screens.push(
  { path: '/config/reviews', label: 'Reviews', component: ReviewsScreen },
  { path: '/config/related-products', label: 'Related products', component: RelatedProductsScreen },
  { path: '/config/donations', label: 'Donations', component: DonationsScreen },
);

/** Page editor (issue #13): the pages list and the editor of one page (/config/pages/:id). */
screens.push({ path: '/config/pages', label: 'Page editor', component: PagesEditorScreen }, { path: '/config/styles', label: 'Site styles', component: StylesScreen });
/** Journal posts (issue 27): the posts list and the page editor for one post's body (/config/posts/:id). */
screens.push({ path: '/config/posts', label: 'Posts', component: PostsEditorScreen });

/** Members: the site password, page passwords, member areas, video courses, members and paywall events (server/members). */
screens.push({ path: '/config/members', label: 'Members', component: MembersScreen });

/** Features, experiments, preview and safe mode; billing and its upgrade destinations (server/flags). */
screens.push({ path: '/config/features', label: 'Features', component: FeaturesScreen }, { path: '/config/settings/billing', label: 'Billing', component: BillingScreen });

/** The site address: where emailed links point when PUBLIC_URL is not set (server/email-origin.ts). */
screens.push({ path: '/config/site-address', label: 'Site address', component: SiteAddressScreen });
/** Connected accounts: link services such as online food ordering ('Order Now' in the menu; server/platform/connected-accounts.ts). */
screens.push({ path: '/config/connected-accounts', label: 'Connected accounts', component: ConnectedAccountsScreen });
/** Search engines: robots.txt and URL redirects (server/seo). */
screens.push({ path: '/config/seo', label: 'Search engines', component: SeoScreen });
/** The owner's admin (issue 23): customers and the site's own settings. */
screens.push({ path: '/config/customers', label: 'Customers', component: CustomersScreen }, { path: '/config/settings', label: 'Site settings', component: SiteSettingsScreen }, { path: '/config/outbox', label: 'Emails', component: EmailsScreen }, { path: '/config/email-settings', label: 'Email settings', component: EmailSettingsScreen });

/** Payments (issue 25): Stripe's keys, Check connection, the webhook address; test mode without keys. */
screens.push({ path: '/config/payments', label: 'Payments', component: PaymentsScreen });

/** Catalogue (issue 24): the inventory of every variant (the product list and editor are under /config/products). */
screens.push({ path: '/config/inventory', label: 'Inventory', component: InventoryScreen });

export function screenFor(pathname: string): AdminScreen | undefined {
  const p = pathname.replace(/\/+$/, '') || '/config';
  let best: AdminScreen | undefined;
  for (const s of screens) {
    const match = s.path === p || (s.path.endsWith('/') && p.startsWith(s.path)) || p.startsWith(s.path + '/');
    if (match && (!best || s.path.length > best.path.length)) best = s;
  }
  return best;
}

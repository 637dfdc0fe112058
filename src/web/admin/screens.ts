import type { ComponentType } from 'react';
import type { Area } from '../../core/roles.js';
import { MembersScreen } from './members/MembersScreen.js';
import { Dashboard } from './home/Dashboard.js';
import { ProductsScreen } from './catalog/ProductsScreen.js';
import {
  ContentScreen,
  NavigationScreen,
  HeaderFooterScreen,
  LanguagesScreen,
  CommercePreferencesScreen,
} from './settings/SettingsScreens.js';
import { TeamScreen } from './team/TeamScreen.js';
import { RestockScreen } from './restock/RestockScreen.js';
import { FormsAdmin } from './forms/Forms.js';
import { OrdersScreen } from './orders/OrdersScreen.js';
import { ShippingScreen } from './checkout/ShippingScreen.js';
import { TaxScreen } from './checkout/TaxScreen.js';
import { CouponsScreen } from './checkout/CouponsScreen.js';
import { Analytics } from './analytics/Analytics.js';
import { PopupScreen, ListsScreen, CookiesScreen } from './engagement/EngagementScreens.js';
import { EmailTemplatesScreen } from './email/EmailTemplatesScreen.js';
import { PagesEditorScreen, PostsEditorScreen, StylesScreen } from './content/editor/lazy.js';
import { ReviewsScreen, RelatedProductsScreen, DonationsScreen } from './reviews/ReviewsScreens.js';
import { BillingScreen, FeaturesScreen } from './settings/FeaturesScreen.js';
import { SiteAddressScreen } from './settings/SiteAddressScreen.js';
import { ConnectedAccountsScreen } from './settings/ConnectedAccountsScreen.js';
import { SeoScreen } from './settings/SeoScreen.js';
import { SiteSettingsScreen } from './settings/SiteSettingsScreen.js';
import { CustomersScreen } from './customers/CustomersScreen.js';
import { EmailsScreen } from './email/EmailsScreen.js';
import { EmailSettingsScreen } from './email/EmailSettingsScreen.js';
import { PaymentsScreen } from './payments/PaymentsScreen.js';
import { InventoryScreen } from './catalog/InventoryScreen.js';

export interface AdminScreen {
  /** Path under /config this screen answers (exact, or a prefix ending in '/'). */
  path: string;
  /** The label in the admin navigation; screens without one are reached from other screens. */
  label?: string;
  /** The area of the roles table (core/roles.ts) whose read access the screen needs: the sidebar and the shell ask it. */
  area: Area;
  component: ComponentType<{ path: string }>;
}

/**
 * Every /config screen. Areas add their screens here; the shell picks the longest matching path.
 * Keep one import and one entry per screen.
 */
export const screens: AdminScreen[] = [
  { path: '/config', area: 'account', label: 'Home', component: Dashboard },
  { path: '/config/orders', area: 'orders', label: 'Orders', component: OrdersScreen },
  { path: '/config/shipping', area: 'checkout', label: 'Shipping', component: ShippingScreen },
  { path: '/config/tax', area: 'checkout', label: 'Tax', component: TaxScreen },
  { path: '/config/coupons', area: 'checkout', label: 'Coupons', component: CouponsScreen },
  { path: '/config/analytics', area: 'analytics', label: 'Analytics', component: Analytics },
  { path: '/config/forms', area: 'forms', label: 'Forms', component: FormsAdmin },
  { path: '/config/restock', area: 'restock', label: 'Back in stock', component: RestockScreen },
];

/** Platform screens: products and stores, navigation, pages and posts, header/footer code, languages, commerce preferences, team. */
screens.push(
  { path: '/config/products', area: 'products', label: 'Products', component: ProductsScreen },
  { path: '/config/navigation', area: 'navigation', label: 'Navigation', component: NavigationScreen },
  { path: '/config/content', area: 'pages', label: 'Pages & posts', component: ContentScreen },
  { path: '/config/code', area: 'code', label: 'Header & footer', component: HeaderFooterScreen },
  { path: '/config/languages', area: 'settings', label: 'Languages', component: LanguagesScreen },
  { path: '/config/commerce', area: 'store-settings', label: 'Commerce', component: CommercePreferencesScreen },
  { path: '/config/team', area: 'team', label: 'Team', component: TeamScreen },
);

/** Engagement: promo popup, mailing lists, cookie banner, email preview (301). */
screens.push(
  { path: '/config/popup', area: 'marketing', label: 'Promo popup', component: PopupScreen },
  { path: '/config/mailing-lists', area: 'mailing-lists', label: 'Mailing lists', component: ListsScreen },
  { path: '/config/cookies', area: 'marketing', label: 'Cookie banner', component: CookiesScreen },
  { path: '/config/emails', area: 'email-templates', label: 'Email preview', component: EmailTemplatesScreen },
);

/** Reviews moderation, related products, donations. */
screens.push(
  { path: '/config/reviews', area: 'reviews', label: 'Reviews', component: ReviewsScreen },
  { path: '/config/related-products', area: 'review-settings', label: 'Related products', component: RelatedProductsScreen },
  { path: '/config/donations', area: 'donations', label: 'Donations', component: DonationsScreen },
);

/** Page editor (issue #13): the pages list and the editor of one page (/config/pages/:id). */
screens.push(
  { path: '/config/pages', area: 'drafts', label: 'Page editor', component: PagesEditorScreen },
  { path: '/config/styles', area: 'styles', label: 'Site styles', component: StylesScreen },
);
/** Journal posts (issue 27): the posts list and the page editor for one post's body (/config/posts/:id). */
screens.push({ path: '/config/posts', area: 'drafts', label: 'Posts', component: PostsEditorScreen });

/** Members: the site password, page passwords, member areas, video courses, members and paywall events (server/members). */
screens.push({ path: '/config/members', area: 'members', label: 'Members', component: MembersScreen });

/** Features, experiments, preview and safe mode; billing and its upgrade destinations (server/flags). */
screens.push(
  { path: '/config/features', area: 'features', label: 'Features', component: FeaturesScreen },
  { path: '/config/settings/billing', area: 'features', label: 'Billing', component: BillingScreen },
);

/** The site address: where emailed links point when PUBLIC_URL is not set (server/email-origin.ts). */
screens.push({ path: '/config/site-address', area: 'site-address', label: 'Site address', component: SiteAddressScreen });
/** Connected accounts: link services such as online food ordering ('Order Now' in the menu; server/platform/connected-accounts.ts). */
screens.push({ path: '/config/connected-accounts', area: 'settings', label: 'Connected accounts', component: ConnectedAccountsScreen });
/** Search engines: robots.txt and URL redirects (server/seo). */
screens.push({ path: '/config/seo', area: 'settings', label: 'Search engines', component: SeoScreen });
/** The owner's admin (issue 23): customers and the site's own settings. */
screens.push(
  { path: '/config/customers', area: 'customers', label: 'Customers', component: CustomersScreen },
  { path: '/config/settings', area: 'settings', label: 'Site settings', component: SiteSettingsScreen },
  { path: '/config/outbox', area: 'email-delivery', label: 'Emails', component: EmailsScreen },
  { path: '/config/email-settings', area: 'email-delivery', label: 'Email settings', component: EmailSettingsScreen },
);

/** Payments (issue 25): Stripe's keys, Check connection, the webhook address; test mode without keys. */
screens.push({ path: '/config/payments', area: 'payments', label: 'Payments', component: PaymentsScreen });

/** Catalogue (issue 24): the inventory of every variant (the product list and editor are under /config/products). */
screens.push({ path: '/config/inventory', area: 'products', label: 'Inventory', component: InventoryScreen });

export function screenFor(pathname: string): AdminScreen | undefined {
  const p = pathname.replace(/\/+$/, '') || '/config';
  let best: AdminScreen | undefined;
  for (const s of screens) {
    const match = s.path === p || (s.path.endsWith('/') && p.startsWith(s.path)) || p.startsWith(s.path + '/');
    if (match && (!best || s.path.length > best.path.length)) best = s;
  }
  return best;
}

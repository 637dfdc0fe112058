/**
 * The sidebar's groups (issue 23): Home; Orders; Products; Customers; Content; Marketing; Analytics; Settings.
 * Entries are screens of screens.ts named by path; a labelled screen placed in no group lands under Settings, so
 * an area that adds a screen is never lost from the navigation. Given a role, only the screens whose area the
 * role may read (core/roles.ts) are listed: staff see what they can use.
 */
import { screens, type AdminScreen } from './screens.js';
import { allows } from '../../core/roles.js';

export interface NavGroup {
  /** A heading for groups of several screens; top-level links have none. */
  heading?: string;
  items: AdminScreen[];
}

const LAYOUT: Array<{ heading?: string; paths: string[] }> = [
  { paths: ['/config', '/config/orders', '/config/products', '/config/inventory', '/config/customers'] },
  {
    heading: 'Content',
    paths: ['/config/pages', '/config/posts', '/config/content', '/config/navigation', '/config/forms', '/config/styles'],
  },
  {
    heading: 'Marketing',
    paths: [
      '/config/mailing-lists',
      '/config/popup',
      '/config/cookies',
      '/config/reviews',
      '/config/restock',
      '/config/donations',
      '/config/coupons',
    ],
  },
  { paths: ['/config/analytics'] },
  {
    heading: 'Settings',
    paths: ['/config/settings', '/config/payments', '/config/site-address', '/config/outbox', '/config/email-settings', '/config/emails'],
  },
];

export function navGroups(all: AdminScreen[] = screens, role?: number): NavGroup[] {
  const labelled = all.filter((s) => s.label && (role === undefined || allows(role, s.area, 'read')));
  const byPath = new Map(labelled.map((s) => [s.path, s]));
  const placed = new Set<string>();
  const groups = LAYOUT.map((g) => ({
    heading: g.heading,
    items: g.paths.flatMap((p) => {
      const s = byPath.get(p);
      if (!s) return [];
      placed.add(p);
      return [s];
    }),
  }));
  const settings = groups.find((g) => g.heading === 'Settings')!;
  for (const s of labelled) if (!placed.has(s.path)) settings.items.push(s);
  return groups.filter((g) => g.items.length > 0);
}

/**
 * What each staff role may do, as one table (issue 38): per area of the admin, the roles that read it and the
 * roles that change it. The server's owner guards take their roles from here (`app.requireOwner(can(area, access))`,
 * GET routes read, every other method writes), the Team screen's role descriptions are written from it
 * (`roleDescriptions`), and docs/SECURITY.md shows it (`accessTableMarkdown`, checked by a test), so the three
 * cannot disagree (docs/decisions/0006-one-role-table.md). Role codes are the stored enumeration (core/enums.ts `Role`).
 */
import { Role } from './enums.js';

export type Access = 'read' | 'write';

export interface AreaRights {
  /** What the area is, in the Team screen's words (lower case, used inside a sentence). */
  label: string;
  read: readonly Role[];
  write: readonly Role[];
}

const { ADMIN, WEBSITE_MANAGER, STORE_MANAGER, EDITOR, DRAFT_EDITOR, MODERATOR, REPORTING, BILLING, VIEWER } = Role;

/** Every code of the enumeration: a signed-in owner of any role. */
const EVERYONE: readonly Role[] = Object.freeze(Object.values(Role));
const ADMIN_ONLY = [ADMIN] as const;
const SITE = [ADMIN, WEBSITE_MANAGER] as const;
const STORE = [ADMIN, WEBSITE_MANAGER, STORE_MANAGER] as const;
const SHOP = [ADMIN, STORE_MANAGER] as const;
const CONTENT = [ADMIN, WEBSITE_MANAGER, EDITOR] as const;
const DRAFTS = [ADMIN, WEBSITE_MANAGER, EDITOR, DRAFT_EDITOR] as const;
/** The read-only views of the site's content and catalogue. */
const OVERVIEW = [ADMIN, WEBSITE_MANAGER, STORE_MANAGER, EDITOR, VIEWER] as const;

function area(label: string, read: readonly Role[], write: readonly Role[]): AreaRights {
  return Object.freeze({ label, read: Object.freeze([...read]), write: Object.freeze([...write]) });
}

/** The table. Keep an area's write roles among its read roles (a test checks it). */
export const ACCESS = Object.freeze({
  account: area('their own sign-in, previews, safe mode and address look-up', EVERYONE, EVERYONE),
  pages: area('pages and posts on the live site', OVERVIEW, CONTENT),
  drafts: area('drafts in the page editor', DRAFTS, DRAFTS),
  styles: area('site styles', DRAFTS, CONTENT),
  uploads: area('uploads', DRAFTS, DRAFTS),
  /** Not a route's area: renaming or deleting an upload that published content uses (editor/routes.ts). */
  'published-uploads': area('uploads that published content uses', CONTENT, CONTENT),
  navigation: area('navigation and collections', OVERVIEW, SITE),
  features: area('features and experiments', OVERVIEW, SITE),
  settings: area('site settings (time zone, languages, SEO, connected accounts)', SITE, SITE),
  'site-address': area('the site address', SITE, ADMIN_ONLY),
  code: area('header and footer code', SITE, ADMIN_ONLY),
  themes: area('themes', SITE, SITE),
  members: area('member areas, courses and site passwords', SITE, SITE),
  marketing: area('the promotional popup and cookie banner', SITE, SITE),
  'mailing-lists': area('mailing lists and their subscribers', SITE, SITE),
  'list-names': area('the names of the mailing lists (for newsletter blocks)', CONTENT, []),
  'email-templates': area('email templates', STORE, []),
  forms: area('forms and their submissions', [ADMIN, WEBSITE_MANAGER, EDITOR, REPORTING, VIEWER], CONTENT),
  'form-settings': area('form deletion and captcha settings', SITE, SITE),
  analytics: area('analytics', [ADMIN, WEBSITE_MANAGER, STORE_MANAGER, REPORTING], SITE),
  products: area('products and inventory', OVERVIEW, STORE),
  'digital-files': area('digital product files', STORE, STORE),
  'store-settings': area('store settings', STORE, STORE),
  customers: area('the dashboard and customers', STORE, STORE),
  orders: area('orders', SHOP, SHOP),
  checkout: area('checkout settings, shipping, tax and coupons', SHOP, SHOP),
  restock: area('restock notifications', SHOP, SHOP),
  reviews: area('product reviews', [ADMIN, STORE_MANAGER, MODERATOR], [ADMIN, STORE_MANAGER, MODERATOR]),
  'review-settings': area('review settings and related products', SHOP, SHOP),
  donations: area('donations and donors', [ADMIN, STORE_MANAGER, BILLING], []),
  'donation-settings': area('donation settings', SHOP, SHOP),
  payments: area('payment settings', ADMIN_ONLY, ADMIN_ONLY),
  'email-delivery': area('email delivery and the sent emails', ADMIN_ONLY, ADMIN_ONLY),
  team: area('the team and the audit log', ADMIN_ONLY, ADMIN_ONLY),
  backup: area('the backup download', ADMIN_ONLY, ADMIN_ONLY),
} satisfies Record<string, AreaRights>);

export type Area = keyof typeof ACCESS;
export const AREAS = Object.freeze(Object.keys(ACCESS) as Area[]);

/** One entry of the table: an area, read or write, and the roles it admits. */
export interface Grant {
  readonly area: Area;
  readonly access: Access;
  readonly roles: readonly Role[];
}

/** The grant of an area and access, for a route guard: `app.requireOwner(can('orders', 'write'))`. */
export function can(area: Area, access: Access): Grant {
  return Object.freeze({ area, access, roles: ACCESS[area][access] });
}

/** Whether a role may read or write an area. */
export function allows(role: number, area: Area, access: Access): boolean {
  return (ACCESS[area][access] as readonly number[]).includes(role);
}

/** The roles an owner can give, in the order the Team screen lists them, with their names. */
export const ROLE_NAMES: ReadonlyArray<{ role: Role; name: string; note?: string }> = Object.freeze([
  { role: Role.ADMIN, name: 'Admin' },
  { role: Role.WEBSITE_MANAGER, name: 'Website manager' },
  { role: Role.STORE_MANAGER, name: 'Store manager' },
  { role: Role.EDITOR, name: 'Editor' },
  {
    role: Role.DRAFT_EDITOR,
    name: 'Draft editor',
    note: 'Drafts only: cannot publish, nor rename or delete an upload that published content uses.',
  },
  { role: Role.MODERATOR, name: 'Moderator' },
  { role: Role.REPORTING, name: 'Reporting' },
  { role: Role.BILLING, name: 'Billing' },
  { role: Role.VIEWER, name: 'Viewer' },
  { role: Role.COMMENTER, name: 'Commenter', note: 'In the platform’s list for comments, which Tessera does not have yet.' },
  {
    role: Role.CAMPAIGNS_EDITOR,
    name: 'Campaigns editor',
    note: 'In the platform’s list for email campaigns, which Tessera does not have yet.',
  },
  {
    role: Role.SCHEDULING,
    name: 'Scheduling',
    note: 'In the platform’s list for appointment scheduling, which Tessera does not have yet.',
  },
  {
    role: Role.SCHEDULING_EDITOR,
    name: 'Scheduling editor',
    note: 'In the platform’s list for appointment scheduling, which Tessera does not have yet.',
  },
  {
    role: Role.SCHEDULING_VIEWER,
    name: 'Scheduling viewer',
    note: 'In the platform’s list for appointment scheduling, which Tessera does not have yet.',
  },
]);

/** The first words of a refusal by role (the server's 403 and the admin's forbidden screen). */
export const ROLE_REFUSED = 'Your role does not allow this.';

/** The refusal for an area and access: which roles it needs, by name. */
export function roleRefusal(area: Area, access: Access): string {
  return `${ROLE_REFUSED} It needs one of these roles: ${ACCESS[area][access].map(roleName).join(', ')}.`;
}

/** A role's name ('Role 14' for a code the Team screen does not offer). */
export function roleName(role: number): string {
  return ROLE_NAMES.find((r) => r.role === role)?.name ?? `Role ${role}`;
}

/** Areas that every role has (their own account): not worth a word in a role's description. */
const isCommon = (a: Area) => EVERYONE.every((r) => allows(r, a, 'read') && allows(r, a, 'write'));

/** 'a', 'a and b', 'a; b; and c' (labels may hold commas). */
function listing(labels: string[]): string {
  if (labels.length <= 2) return labels.join(' and ');
  return `${labels.slice(0, -1).join('; ')}; and ${labels[labels.length - 1]}`;
}

/** What a role may do, in words written from the table. */
export function describeRole(role: number): string {
  const areas = AREAS.filter((a) => !isCommon(a));
  const writes = areas.filter((a) => allows(role, a, 'write'));
  const reads = areas.filter((a) => allows(role, a, 'read') && !allows(role, a, 'write'));
  const note = ROLE_NAMES.find((r) => r.role === role)?.note;
  const parts: string[] = [];
  const everything = areas.every((a) => allows(role, a, 'read') && (ACCESS[a].write.length === 0 || allows(role, a, 'write')));
  if (everything) {
    const only = areas.filter((a) => ACCESS[a].write.length === 1);
    parts.push(`Everything. The only role that changes ${listing(only.map((a) => ACCESS[a].label))}.`);
  } else {
    if (writes.length) parts.push(`Changes ${listing(writes.map((a) => ACCESS[a].label))}.`);
    if (reads.length)
      parts.push(
        `${writes.length ? 'Also reads' : 'Reads'} ${listing(reads.map((a) => ACCESS[a].label))}${writes.length ? '' : '; changes nothing'}.`,
      );
    if (!writes.length && !reads.length) parts.push('Can sign in, but sees and changes nothing.');
  }
  return [note, ...parts].filter(Boolean).join(' ');
}

/** The Team screen's list of roles: code, name and what the role may do. */
export function roleDescriptions(): Array<{ role: number; name: string; description: string }> {
  return ROLE_NAMES.map((r) => ({ role: r.role, name: r.name, description: describeRole(r.role) }));
}

/** The table as Markdown, as docs/SECURITY.md shows it between its roles-table markers. */
export function accessTableMarkdown(): string {
  const names = (roles: readonly Role[]) =>
    roles.length === 0 ? '—' : roles.length === EVERYONE.length ? 'every role' : roles.map((r) => `${roleName(r)} (${r})`).join(', ');
  const rows = AREAS.map((a) => `| \`${a}\` | ${ACCESS[a].label} | ${names(ACCESS[a].read)} | ${names(ACCESS[a].write)} |`);
  return ['| Area | What | Read | Write |', '|---|---|---|---|', ...rows].join('\n');
}

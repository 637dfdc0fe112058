/** The owner's calls' wire shapes. */
import type { SiteSettings } from '../site-settings.js';
import type { AddressFormat, CountryOption } from './common.js';

/** GET and PUT /api/admin/site-settings: the settings, and the business address form's countries and first format. */
export interface SiteSettingsAnswer {
  settings: SiteSettings;
  countries: CountryOption[];
  addressFormat: AddressFormat;
}

/** The owner's shell: what GET /api/admin/shell answers for the top bar, the sidebar and every screen's dates. */
export interface AdminShellInfo {
  siteTitle: string;
  email: string;
  displayName: string;
  role: number;
  websiteId: string;
  /** The shop's language and region (a BCP 47 tag such as en-GB): /config writes dates the shop's way. */
  locale: string;
  /** The shop's IANA time zone: /config shows times as the shop's clock reads them. */
  timeZone: string;
}

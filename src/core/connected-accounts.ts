/**
 * Connected account link services: the online food ordering
 * provider, whose link is titled 'Order Now' unless the owner names it. The owner connects the ordering
 * page's address in /config/connected-accounts; the site's menu then shows the link.
 */
import { commerce } from './messages';

export const ConnectedLinkService = Object.freeze({ ONLINE_ORDERING: 'online-ordering' } as const);
export type ConnectedLinkService = (typeof ConnectedLinkService)[keyof typeof ConnectedLinkService];

/** The default link title of each link service. */
export const CONNECTED_LINK_DEFAULT_TITLES: Readonly<Record<ConnectedLinkService, string>> = Object.freeze({
  [ConnectedLinkService.ONLINE_ORDERING]: commerce.ORDER_NOW,
});

export const CONNECTED_LINK_URL_MAX = 2000;
export const CONNECTED_LINK_TITLE_MAX = 60;

export interface ConnectedLink {
  service: ConnectedLinkService;
  url: string;
  /** The owner's title, or '' for the service's default. */
  title: string;
}

/** The link a connected account shows on the site: its url and title (the default when the owner gave none), or null when not connected. */
export function connectedLinkView(stored: unknown, service: ConnectedLinkService): { url: string; title: string } | null {
  const all = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const one = all[service];
  if (!one || typeof one !== 'object') return null;
  const { url, title } = one as { url?: unknown; title?: unknown };
  if (typeof url !== 'string' || !/^https:\/\/[^\s]+$/i.test(url) || url.length > CONNECTED_LINK_URL_MAX) return null;
  const named = typeof title === 'string' ? title.trim().slice(0, CONNECTED_LINK_TITLE_MAX) : '';
  return { url, title: named || CONNECTED_LINK_DEFAULT_TITLES[service] };
}

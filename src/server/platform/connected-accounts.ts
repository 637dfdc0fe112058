/**
 * /config/connected-accounts: link services the site connects to. One today: the
 * online food ordering provider. The owner pastes the restaurant's online ordering address (and may name
 * the link; the default title is 'Order Now'); the site's main menu then links to it. Stored in the
 * website settings under `connectedAccounts.<service>`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CONNECTED_LINK_TITLE_MAX,
  CONNECTED_LINK_URL_MAX,
  ConnectedLinkService,
  connectedLinkView,
  CONNECTED_LINK_DEFAULT_TITLES,
} from '../../core/connected-accounts.js';
import { platform as platformMessages } from '../../core/messages.js';
import { parseInput } from './validate.js';
import { changeSettings } from './settings.js';
import { notFound } from '../errors.js';
import { can } from '../../core/roles.js';

const linkMessage = platformMessages.linksFormattedAs('https://order.example.com', 'https://www.example.com/order');
const body = z.object({
  url: z
    .string({ error: linkMessage })
    .trim()
    .max(CONNECTED_LINK_URL_MAX, linkMessage)
    .refine((s) => s === '' || /^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#][^\s]*)?$/i.test(s), { message: linkMessage }),
  title: z.string().trim().max(CONNECTED_LINK_TITLE_MAX, `Use at most ${CONNECTED_LINK_TITLE_MAX} characters.`).optional().default(''),
});

export async function connectedAccountRoutes(app: FastifyInstance): Promise<void> {
  const websites = app.services.websites;
  const service = ConnectedLinkService.ONLINE_ORDERING;
  const view = (settings: Record<string, unknown>) => {
    const stored = ((settings.connectedAccounts ?? {}) as Record<string, { url?: string; title?: string }>)[service];
    const shown = connectedLinkView(settings.connectedAccounts, service);
    return {
      onlineOrdering: {
        connected: shown !== null,
        url: stored?.url ?? '',
        title: stored?.title ?? '',
        defaultTitle: CONNECTED_LINK_DEFAULT_TITLES[service],
        shownTitle: shown?.title ?? null,
      },
    };
  };
  const ownSite = async (websiteId: string) => {
    const site = await websites.get();
    if (websiteId !== site.id) throw notFound('No such website.');
    return site;
  };
  app.get('/api/config/connected-accounts', { preHandler: app.requireOwner(can('settings', 'read')) }, async (req) =>
    view((await ownSite(req.owner!.websiteId)).settings),
  );
  app.put('/api/config/connected-accounts/online-ordering', { preHandler: app.requireOwner(can('settings', 'write')) }, async (req) => {
    const b = parseInput(body, req.body);
    const site = await ownSite(req.owner!.websiteId);
    const updated = await app.database.db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'connected-accounts.update', (s) => {
        const all = { ...((s.connectedAccounts ?? {}) as Record<string, unknown>) };
        if (b.url) all[service] = { url: b.url, title: b.title };
        else delete all[service];
        return { ...s, connectedAccounts: all };
      }),
    );
    websites.invalidate();
    return view(updated.settings);
  });
}

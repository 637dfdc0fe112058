/**
 * The site address: the public URL visitors use (https://shop.example.com). Emailed links are built from
 * it when PUBLIC_URL is not set (email-origin.ts). Reading it is a settings call; changing it is an admin
 * action, since it decides where every password-reset and confirmation link points.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { platform as platformMessages } from '../../core/messages.js';
import { linkBase, listeningOrigin, SITE_ADDRESS_MAX } from '../email-origin.js';
import { parseInput } from './validate.js';
import { changeSettings } from './settings.js';
import { notFound } from '../errors.js';
import { can } from '../../core/roles.js';

const addressBody = z.object({
  siteAddress: z
    .string({ error: platformMessages.linksFormattedAs('https://example.com', 'http://example.com') })
    .trim()
    .max(SITE_ADDRESS_MAX, platformMessages.linksFormattedAs('https://example.com', 'http://example.com'))
    .refine((s) => s === '' || linkBase(s) !== null, {
      message: platformMessages.linksFormattedAs('https://example.com', 'http://example.com'),
    }),
});

export async function siteAddressRoutes(app: FastifyInstance): Promise<void> {
  const websites = app.services.websites;
  const view = async (saved: unknown) => ({
    siteAddress: typeof saved === 'string' ? saved : '',
    /** PUBLIC_URL wins over the saved address; the screen says so. */
    publicUrl: app.config.PUBLIC_URL ?? null,
    /** What emailed links start with now. */
    linksStartWith: await app.emailOrigin(),
    serverAddress: listeningOrigin(app),
  });
  app.get('/api/config/site-address', { preHandler: app.requireOwner(can('site-address', 'read')) }, async (req) => {
    const site = await websites.get();
    if (req.owner!.websiteId !== site.id) throw notFound('No such website.');
    return view(site.settings.siteAddress);
  });
  app.put('/api/config/site-address', { preHandler: app.requireOwner(can('site-address', 'write')) }, async (req) => {
    const body = parseInput(addressBody, req.body);
    const value = body.siteAddress === '' ? '' : linkBase(body.siteAddress)!;
    const site = await websites.get();
    if (req.owner!.websiteId !== site.id) throw notFound('No such website.');
    await app.database.db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'site-address.update', (s) => {
        const next = { ...s };
        if (value) next.siteAddress = value;
        else delete next.siteAddress;
        return next;
      }),
    );
    websites.invalidate();
    return view(value);
  });
}

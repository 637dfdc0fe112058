/**
 * GET /api/address-format/:country: one country's address format (parts, order, labels, postcode pattern,
 * subdivisions named in the site's language), which address forms load when the shopper picks a country,
 * so the public bundle carries no country's data. Public and the same for everyone: cached an hour.
 */
import type { FastifyInstance } from 'fastify';
import { isCountryCode, UNKNOWN_COUNTRY } from '../../core/countries.js';
import type { AddressFormatAnswer } from '../../core/api/common.js';
import { addressFormat } from '../site-page/index.js';
import { HttpError } from '../errors.js';

export async function addressFormatRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { country: string } }>('/api/address-format/:country', async (req, reply) => {
    const code = req.params.country;
    if (!isCountryCode(code)) throw new HttpError(404, UNKNOWN_COUNTRY);
    const site = await app.services.websites.get();
    reply.header('cache-control', 'public, max-age=3600');
    const answer: AddressFormatAnswer = { format: addressFormat(code, site.locale) };
    return answer;
  });
}

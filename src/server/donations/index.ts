import type { FastifyInstance } from 'fastify';
import { DonationService } from './service.js';
import { donationRoutes } from './routes.js';

/** The donations area: the donate page (203), test-mode payment through checkout's provider, the contribution confirmed page (204), donors for the owner. */
export async function donationsArea(app: FastifyInstance): Promise<void> {
  const donations = new DonationService(app.database, () => app.checkout.payments);
  await donationRoutes(app, { donations });
}

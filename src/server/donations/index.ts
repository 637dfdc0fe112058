import type { FastifyInstance } from 'fastify';
import { DonationService } from './service.js';
import { donationRoutes } from './routes.js';

/** The donations area: the donate page (203), test-mode payment through checkout's provider, the contribution confirmed page (204), donors for the owner. */
export async function donationsArea(app: FastifyInstance): Promise<void> {
  const donations = new DonationService(app.database, () => app.checkout.payments);
  // The payment reconciler records (or refunds) a donation a crash left charged.
  app.checkout.service.registerAttemptSettler('donation', (attempt, provider, paid) => donations.settleAttempt(attempt, provider, paid));
  await donationRoutes(app, { donations });
}
export { donationBlockForm, donationStripe } from './form.js';
export { donationSettingsOf } from './settings.js';

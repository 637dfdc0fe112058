import type { FastifyInstance } from 'fastify';
import { captchaRoutes } from '../captcha/index.js';

/** The forms area: its routes and services register here (see docs/ARCHITECTURE.md). */
export async function formsArea(app: FastifyInstance): Promise<void> {
  await captchaRoutes(app);
}

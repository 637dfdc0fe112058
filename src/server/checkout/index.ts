import type { FastifyInstance } from 'fastify';

/** The checkout area: its routes and services register here (see docs/ARCHITECTURE.md). */
export async function checkoutArea(_app: FastifyInstance): Promise<void> {}

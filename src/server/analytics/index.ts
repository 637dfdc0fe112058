import type { FastifyInstance } from 'fastify';

/** The analytics area: its routes and services register here (see docs/ARCHITECTURE.md). */
export async function analyticsArea(_app: FastifyInstance): Promise<void> {}

import type { FastifyInstance } from 'fastify';

/** The restock area: its routes and services register here (see docs/ARCHITECTURE.md). */
export async function restockArea(_app: FastifyInstance): Promise<void> {}

import type { FastifyInstance } from 'fastify';

/** The forms area: its routes and services register here (see docs/ARCHITECTURE.md). */
export async function formsArea(_app: FastifyInstance): Promise<void> {}

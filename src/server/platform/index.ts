import type { FastifyInstance } from 'fastify';

/** Platform settings calls (site users, header/footer, multilingual, store creation, preferences). */
export async function platformArea(_app: FastifyInstance): Promise<void> {}

/**
 * PUT /api/commerce/inventory/variants/{variantId} {qtyInStock, unlimited}: an owner restocks a variant.
 * Admin and store manager only. When the variant goes from none to in stock, the automatic restock send
 * starts in the same transaction (see onStockChanged).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RestockService } from './service.js';
import { can } from '../../core/roles.js';

export const STOCK_TEXT = { NOTHING_TO_CHANGE: 'Give qtyInStock or unlimited.' } as const;

const body = z
  .object({
    qtyInStock: z.number().int().min(0).max(1_000_000_000).optional(),
    unlimited: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.qtyInStock !== undefined || b.unlimited !== undefined, { message: STOCK_TEXT.NOTHING_TO_CHANGE });

export async function inventoryRoutes(app: FastifyInstance, opts: { service: RestockService }) {
  app.put<{ Params: { variantId: string } }>(
    '/api/commerce/inventory/variants/:variantId',
    { preHandler: app.requireOwner(can('restock', 'write')) },
    async (req) => {
      const variantId = z.string().min(1).max(64).parse(req.params.variantId);
      const patch = body.parse(req.body ?? {});
      return opts.service.setStock(req.owner!.websiteId, variantId, patch, { requestedBy: req.owner!.id, origin: await app.emailOrigin() });
    },
  );
}

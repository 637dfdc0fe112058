/**
 * The product CSV import and export calls (issue 24); the plan, the job and the export are import-service.ts's.
 *
 * - POST /api/config/catalog/import {csv, format?, collectionId?, dryRun}: a dry run answers the plan and each
 *   row's errors and writes nothing; a real run with any error is refused (400, the same errors) and writes
 *   nothing; otherwise it starts a job and answers its id.
 * - GET /api/config/catalog/import/:id: the job's progress (total, done, created, updated, state, warnings).
 * - GET /api/config/catalog/export?format=squarespace|shopify: the catalogue as CSV in that layout.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../platform/index.js';
import { HttpError, notFound } from '../errors.js';
import { can } from '../../core/roles.js';
import { CSV_TEXT, MAX_CSV_BYTES, type CsvFormat } from './csv.js';
import { exportCsv, IMPORT_TEXT, importCtx, importJob, plan, run, startJob, summary } from './import-service.js';

export { IMPORT_TEXT, ownUpload } from './import-service.js';

const importIn = z.object({
  csv: z.string({ error: 'Choose a CSV file.' }).min(1, 'Choose a CSV file.'),
  format: z.enum(['squarespace', 'shopify']).optional(),
  collectionId: z.string().max(64).optional(),
  dryRun: z.boolean().optional().default(true),
});

export async function importRoutes(app: FastifyInstance) {
  const readRoles = { preHandler: app.requireOwner(can('products', 'read')) };
  const storeRoles = { preHandler: app.requireOwner(can('products', 'write')) };
  const siteId = (req: FastifyRequest) => req.owner!.websiteId;
  const ctx = importCtx(app);
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });

  // The body is read up to the limit and no further (Fastify stops at bodyLimit and answers 413 in these words).
  app.post(
    '/api/config/catalog/import',
    { ...storeRoles, bodyLimit: MAX_CSV_BYTES + 64 * 1024, config: { tooLargeMessage: CSV_TEXT.TOO_LARGE } },
    async (req, reply) => {
      const body = parseInput(importIn, req.body);
      if (body.csv.length > MAX_CSV_BYTES) throw new HttpError(413, CSV_TEXT.TOO_LARGE);
      const site = await app.services.websites.get();
      const p = await plan(ctx, siteId(req), body.csv, body.format, body.collectionId, site.currency);
      if (body.dryRun) return { dryRun: true, ...summary(p) };
      if (p.errors.length)
        throw new HttpError(400, IMPORT_TEXT.HAS_ERRORS(new Set(p.errors.map((e) => e.row)).size), undefined, { ...summary(p) });
      const id = await startJob(app, siteId(req), p);
      const job = run(ctx, id, siteId(req), req.owner!.id, p).finally(() => running.delete(job));
      running.add(job);
      return reply.status(202).send({ jobId: id, ...summary(p) });
    },
  );

  app.get('/api/config/catalog/import/:id', readRoles, async (req, reply) => {
    const { id } = parseInput(z.object({ id: z.string().min(1).max(64) }), req.params);
    const job = await importJob(app, siteId(req), id);
    if (!job) throw notFound('No such import.');
    reply.header('cache-control', 'no-store');
    return job;
  });

  app.get('/api/config/catalog/export', readRoles, async (req, reply) => {
    const q = parseInput(
      z.object({ format: z.enum(['squarespace', 'shopify'], { error: 'Choose squarespace or shopify.' }) }),
      req.query ?? {},
    );
    const csv = await exportCsv(app, siteId(req), q.format as CsvFormat);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="products-${q.format}.csv"`)
      .header('cache-control', 'no-store');
    return csv;
  });
}

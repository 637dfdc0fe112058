/**
 * GET /api/admin/backup: the owner's backup download (/config Settings). Administrators only (the archive
 * holds every customer's data and every account's password hash); a few per hour, since each one reads the
 * whole database. A GET that changes nothing, so no CSRF crumb; never cached.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitRule } from '../plugins/index.js';
import { backupStream } from './archive.js';
import { can } from '../../core/roles.js';

export const BACKUP_DOWNLOAD_LIMIT: RateLimitRule & { ipMax: number } = {
  name: 'backup-download',
  max: 6,
  windowMs: 60 * 60_000,
  ipMax: 6,
  key: (req) => `acct:${req.owner?.id ?? req.ip}`,
  message: 'Too many backups in an hour. Please try again later.',
};

export const backupArea = fp(async (app: FastifyInstance) => {
  app.get(
    '/api/admin/backup',
    {
      preHandler: [
        app.requireOwner(can('backup', 'read'), 'Only an administrator can download a backup.'),
        app.services.rateLimiter.guard(BACKUP_DOWNLOAD_LIMIT),
      ],
    },
    async (req, reply) => {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const { stream, done } = backupStream(app.database, app.config.DATA_DIR);
      done.then(
        (m) => req.log.info({ owner: req.owner?.id, tables: Object.keys(m.tables).length, media: m.media.length }, 'backup downloaded'),
        (err: Error) => req.log.error({ err }, 'backup download failed'),
      );
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="tessera-backup-${stamp}.tar.gz"`)
        .send(stream);
    },
  );
});

import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ImageVariantError, ImageVariants } from './variants.js';

/**
 * Serves `?format=NNNw` size variants of the images under the media prefixes. Requests without a
 * format (or with format=original) fall through to the static file handler.
 */
export function imageRoutes(app: FastifyInstance, variants: ImageVariants): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const url = req.url;
    const q = url.indexOf('?');
    if (q < 0) return;
    const path = url.slice(0, q);
    if (!variants.handles(path)) return;
    const format = new URLSearchParams(url.slice(q + 1)).get('format');
    if (format === null || format === 'original') return;
    try {
      const v = await variants.variant(path, format, req.headers.accept);
      reply
        .header('content-type', v.contentType)
        .header('content-length', String(v.bytes))
        .header('cache-control', 'public, max-age=604800')
        .header('vary', 'Accept');
      return reply.send(req.method === 'HEAD' ? '' : createReadStream(v.file));
    } catch (err) {
      if (err instanceof ImageVariantError)
        return reply.status(err.status).send({ error: err.status === 404 ? 'Not found' : 'Bad request', message: err.message });
      req.log.error({ err, path }, 'image variant failed');
      return reply.status(500).send({ error: 'Internal Server Error', message: 'The image could not be resized.' });
    }
  });
}

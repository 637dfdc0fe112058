import type { FastifyInstance, FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { HttpError } from '../errors.js';
import { BAD_PATH_MESSAGE, isBadPath } from './path.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The message of a body over the route's bodyLimit (a file upload names its own). */
    tooLargeMessage?: string;
  }
}

/** PostgreSQL refuses text it cannot store (a NUL byte, a broken encoding): the request is at fault. */
const BAD_TEXT_CODES = new Set(['22021', '22P05', '54000']);

function databaseCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const UNSTORABLE_TEXT = 'The request contains characters that cannot be stored.';

/** Maps every error to a JSON answer with a clear message; 5xx answers never carry internals. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // A NUL byte in the path or query can never name anything we store.
  app.addHook('onRequest', async (req, reply) => {
    // A path refused before routing (encoded slash, double encoding, dot segments): plugins/path.ts.
    if (isBadPath(req.raw))
      return reply.status(400).header('cache-control', 'no-store').send({ error: BAD_PATH_MESSAGE, message: BAD_PATH_MESSAGE });
    if (req.url.includes('%00') || req.url.includes('\u0000'))
      return reply.status(400).send({ error: UNSTORABLE_TEXT, message: UNSTORABLE_TEXT });
  });
  app.setErrorHandler((err: FastifyError | HttpError | ZodError, req, reply) => {
    const dbCode = databaseCode(err);
    if (dbCode && BAD_TEXT_CODES.has(dbCode)) return reply.status(400).send({ error: UNSTORABLE_TEXT, message: UNSTORABLE_TEXT });
    if (err instanceof HttpError) {
      return reply
        .status(err.status)
        .send({ error: err.message, message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...err.extra });
    }
    if (err instanceof ZodError) {
      const errors: Record<string, string> = {};
      for (const i of err.issues) errors[i.path.join('.') || '_'] = i.message;
      const first = err.issues[0];
      const message = first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'Invalid request';
      return reply.status(400).send({ error: message, message, errors });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = (err as FastifyError).code;
      let message = err.message;
      if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) message = 'The request body is not valid JSON.';
      // A route that takes files names its own limit's message (config.tooLargeMessage).
      else if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        message = req.routeOptions?.config?.tooLargeMessage ?? 'The request body is too large.';
      else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported content type.';
      return reply.status(status).send({ error: message, message });
    }
    req.log.error({ err }, 'request failed');
    if (!req.url.startsWith('/api/') && req.method === 'GET' && app.hasDecorator('renderErrorPage')) {
      return (app as unknown as { renderErrorPage: (q: typeof req, r: typeof reply) => Promise<unknown> }).renderErrorPage(req, reply);
    }
    // The request id (plugins/ops.ts) ties a user's report to this request's log lines.
    return reply.status(500).send({ error: 'Something went wrong', message: 'Something went wrong', requestId: req.id });
  });
});

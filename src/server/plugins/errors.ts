import type { FastifyInstance, FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { HttpError } from '../errors.js';

/** Maps every error to a JSON answer with a clear message; 5xx answers never carry internals. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError, req, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).send({ error: err.message, message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...err.extra });
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
      else if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'The request body is too large.';
      else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported content type.';
      return reply.status(status).send({ error: message, message });
    }
    req.log.error({ err }, 'request failed');
    if (!req.url.startsWith('/api/') && req.method === 'GET' && app.hasDecorator('renderErrorPage')) {
      return (app as unknown as { renderErrorPage: (q: typeof req, r: typeof reply) => Promise<unknown> }).renderErrorPage(req, reply);
    }
    return reply.status(500).send({ error: 'Something went wrong', message: 'Something went wrong' });
  });
});

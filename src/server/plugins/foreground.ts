/**
 * Requests being served, so that long background work (the product CSV import) can give way to them.
 *
 * Every request counts from its start until its response ends or its connection closes, except a request
 * answered from memory (a page-cache hit calls `light`): such a request needs nothing a background job
 * holds. `quiet(maxMs)` resolves once no counted request is in flight, or after `maxMs` at the latest, so
 * a job that waits for it between its transactions never makes a page render wait behind it for long, and
 * still moves on under a steady stream of requests.
 *
 * This matters most on PGlite: one embedded connection runs every query of the process in turn, so a
 * page render that starts while a job's transaction is open waits for that transaction to end.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export class Foreground {
  private readonly busy = new Set<FastifyRequest>();
  private waiters: Array<() => void> = [];

  /** Requests counted now (tests). */
  get size(): number {
    return this.busy.size;
  }

  enter(req: FastifyRequest): void {
    this.busy.add(req);
  }

  /** The request ended, or needs nothing more that background work could hold. */
  leave(req: FastifyRequest): void {
    if (!this.busy.delete(req) || this.busy.size > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** A request answered from memory: it no longer counts. */
  light(req: FastifyRequest): void {
    this.leave(req);
  }

  /** Resolves when no counted request is in flight, or after `maxMs`. */
  quiet(maxMs: number): Promise<void> {
    if (this.busy.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== finish);
        finish();
      }, maxMs);
      timer.unref();
      this.waiters.push(finish);
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    foreground: Foreground;
  }
}

export const foregroundPlugin = fp(async (app: FastifyInstance) => {
  const fg = new Foreground();
  app.decorate('foreground', fg);
  app.addHook('onRequest', (req, reply, done) => {
    fg.enter(req);
    reply.raw.once('close', () => fg.leave(req));
    done();
  });
  app.addHook('onResponse', (req, _reply, done) => {
    fg.leave(req);
    done();
  });
});
